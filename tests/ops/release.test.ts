import { afterAll, expect, test } from 'bun:test'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { VERSION } from '../../src/version'
import { REPO } from './process'

const out = mkdtempSync(join(tmpdir(), 'tollgate-release-test-'))
afterAll(() => rmSync(out, { recursive: true, force: true }))

test('scripts/release.ts builds this platform\'s binary, runs it, and lists its SHA-256 in SHA256SUMS', async () => {
  const run = Bun.spawnSync(['bun', join(REPO, 'scripts/release.ts'), '--targets=host', `--out=${out}`], { cwd: REPO, stdout: 'pipe', stderr: 'pipe', timeout: 180_000 })
  expect([run.exitCode, run.stderr.toString()]).toEqual([0, ''])
  const host = `${process.platform}-${process.arch}`
  const name = `tollgate-${VERSION}-${host}`
  expect(readdirSync(out).sort()).toEqual(['SHA256SUMS', name])
  const [line] = readFileSync(join(out, 'SHA256SUMS'), 'utf8').trim().split('\n')
  const sha = new Bun.CryptoHasher('sha256').update(await Bun.file(join(out, name)).bytes()).digest('hex')
  expect(line).toBe(`${sha}  ${name}`)
  const version = Bun.spawnSync([join(out, name), 'version'], { stdout: 'pipe' })
  expect(version.stdout.toString().trim()).toBe(VERSION)
}, 200_000)

test('an unknown target is refused before anything is built', () => {
  const run = Bun.spawnSync(['bun', join(REPO, 'scripts/release.ts'), '--targets=amiga-m68k', `--out=${out}`], { cwd: REPO, stdout: 'pipe', stderr: 'pipe' })
  expect(run.exitCode).toBe(2)
  expect(run.stderr.toString()).toContain('unknown target amiga-m68k')
})
