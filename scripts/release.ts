/**
 * Release binaries: `bun scripts/release.ts [--targets=linux-x64,linux-arm64,darwin-arm64,windows-x64] [--out=dist/release]`
 *
 * Each target is `bun scripts/build.ts` with `--target=bun-<target>` (bun build --compile; Bun fetches the
 * other platforms' runtimes from the npm registry the first time), named tollgate-<version>-<target>[.exe],
 * and listed with its SHA-256 in SHA256SUMS (the `sha256sum -c` format). `--targets=host` builds this machine's
 * platform only. A binary built for this machine is run once (`version`) before it is listed.
 */
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { VERSION } from '../src/version'

export const TARGETS = ['linux-x64', 'linux-arm64', 'darwin-arm64', 'windows-x64'] as const
const ROOT = resolve(import.meta.dir, '..')

const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3)
const host = `${process.platform === 'win32' ? 'windows' : process.platform}-${process.arch}`
const requested = arg('targets') ?? TARGETS.join(',')
const targets = requested === 'host' ? [host] : requested.split(',').map((t) => t.trim())
for (const target of targets) {
  if (!(TARGETS as readonly string[]).includes(target) && target !== host) {
    console.error(`release: unknown target ${target} (known: ${TARGETS.join(', ')}, or host)`)
    process.exit(2)
  }
}
const out = resolve(arg('out') ?? join(ROOT, 'dist/release'))
mkdirSync(out, { recursive: true })

const sums: string[] = []
let failed = 0
for (const target of targets) {
  const name = `tollgate-${VERSION}-${target}${target.startsWith('windows') ? '.exe' : ''}`
  const work = mkdtempSync(join(tmpdir(), 'tollgate-release-'))
  const started = performance.now()
  const build = Bun.spawnSync(['bun', join(ROOT, 'scripts/build.ts'), join(work, name), `--target=bun-${target}`], { cwd: ROOT, stdout: 'pipe', stderr: 'pipe' })
  if (build.exitCode !== 0) {
    console.error(`release: ${target} failed: ${`${build.stdout}${build.stderr}`.trim().split('\n').slice(-5).join('\n')}`)
    rmSync(work, { recursive: true, force: true })
    failed++
    continue
  }
  // the binary alone: source maps stay out of the release
  renameSync(join(work, name), join(out, name))
  rmSync(work, { recursive: true, force: true })
  if (target === host) {
    const run = Bun.spawnSync([join(out, name), 'version'], { stdout: 'pipe', stderr: 'pipe' })
    if (run.exitCode !== 0 || run.stdout.toString().trim() !== VERSION) {
      console.error(`release: ${name} does not run here: ${run.stderr.toString().trim()}`)
      failed++
      continue
    }
  }
  const bytes = await Bun.file(join(out, name)).bytes()
  const sha = new Bun.CryptoHasher('sha256').update(bytes).digest('hex')
  sums.push(`${sha}  ${name}`)
  console.log(`${name}  ${(bytes.byteLength / 1048576).toFixed(1)} MiB  ${((performance.now() - started) / 1000).toFixed(1)} s  sha256 ${sha}`)
}
writeFileSync(join(out, 'SHA256SUMS'), `${sums.join('\n')}\n`)
console.log(`${sums.length} of ${targets.length} binaries in ${out}, checksums in SHA256SUMS (sha256sum -c SHA256SUMS)`)
process.exit(failed ? 1 : 0)
