/**
 * The compiled gateway, built once per source tree and shared by every test file and every `bun test --parallel`
 * worker: a build (`bun scripts/build.ts`) costs seconds of CPU, and under --parallel each worker would
 * otherwise compile its own. The binary lives in <tmp>/tollgate-bin-<hash of what goes into it>/tollgate; the
 * first process to need it builds it under a lock directory, the others wait for the file to appear.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative } from 'node:path'

const REPO = join(import.meta.dir, '../..')
const CACHE_PREFIX = 'tollgate-bin-'
/** what the binary is made of: the sources it bundles, the build script and the locked dependencies */
const INPUTS = ['src', 'scripts/build.ts', 'scripts/embed-migrations.ts', 'package.json', 'bun.lock', 'tsconfig.json']

function* files(path: string): Generator<string> {
  if (!existsSync(path)) return
  if (!statSync(path).isDirectory()) return yield path
  for (const name of readdirSync(path).sort()) yield* files(join(path, name))
}

/** A hash of every input file's path and bytes: any edit gives a new binary, an unchanged tree reuses the old one. */
function sourceHash(): string {
  const hasher = new Bun.CryptoHasher('sha256')
  for (const input of INPUTS) {
    for (const file of files(join(REPO, input))) {
      hasher.update(relative(REPO, file))
      hasher.update(readFileSync(file))
    }
  }
  return hasher.digest('hex').slice(0, 16)
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** Cached builds of other source trees, unused for an hour, go (an edited tree leaves one behind per edit; each use touches its dir). */
function sweepOldBuilds(keep: string): void {
  const hourAgo = Date.now() - 3_600_000
  for (const name of readdirSync(tmpdir())) {
    if (!name.startsWith(CACHE_PREFIX) || name === keep) continue
    const dir = join(tmpdir(), name)
    try {
      if (statSync(dir).mtimeMs < hourAgo) rmSync(dir, { recursive: true, force: true })
    } catch {
      // another process removed it first
    }
  }
}

/** The pid the building process wrote into the lock, 0 while it has not yet (or the lock is gone). */
function lockOwner(lock: string): number {
  try {
    return Number(readFileSync(join(lock, 'pid'), 'utf8')) || 0
  } catch {
    return 0
  }
}

async function build(outfile: string): Promise<void> {
  const partial = `${outfile}.${process.pid}.partial`
  const proc = Bun.spawn([process.execPath, 'scripts/build.ts', partial], { cwd: REPO, stdout: 'pipe', stderr: 'pipe' })
  const [code, out, err] = await Promise.all([proc.exited, new Response(proc.stdout).text(), new Response(proc.stderr).text()])
  if (code !== 0 || !existsSync(partial)) throw new Error(`e2e: bun scripts/build.ts failed (exit ${code})\n${out}${err}`)
  renameSync(partial, outfile) // appears whole, never half-written, to the processes waiting for it
}

let located: Promise<string> | undefined

/**
 * The path of the compiled gateway for the current source tree, built here unless another process has built
 * it or is building it (then this one waits, polling for the file: processes share no event to wait on). The
 * tree is hashed once per process (23 ms of CPU a hash, and a run spawns the binary hundreds of times); each call
 * marks the build as in use, so no other tree's sweep takes it away mid-run (a sweep that judged by the time the
 * build was made deleted the binary under a long run's feet).
 */
export async function cachedBinary(): Promise<string> {
  const outfile = await (located ??= locate().catch((error: unknown) => {
    located = undefined
    throw error
  }))
  try {
    const now = new Date()
    utimesSync(dirname(outfile), now, now)
    if (existsSync(outfile)) return outfile
  } catch {
    // swept after all: find or build it again
  }
  located = undefined
  return cachedBinary()
}

async function locate(): Promise<string> {
  const name = CACHE_PREFIX + sourceHash()
  const dir = join(tmpdir(), name)
  const outfile = join(dir, 'tollgate')
  const lock = join(dir, 'building')
  sweepOldBuilds(name)
  mkdirSync(dir, { recursive: true })
  for (const deadline = Date.now() + 120_000; !existsSync(outfile); ) {
    if (Date.now() > deadline) throw new Error(`e2e: ${outfile} was not built within 120 s`)
    try {
      mkdirSync(lock) // atomic: one process wins the build
    } catch {
      const owner = lockOwner(lock)
      if (owner && !alive(owner)) rmSync(lock, { recursive: true, force: true }) // its builder died: take over
      else await Bun.sleep(100) // poll: another process is building (a build takes seconds)
      continue
    }
    writeFileSync(join(lock, 'pid'), String(process.pid))
    try {
      if (!existsSync(outfile)) await build(outfile)
    } finally {
      rmSync(lock, { recursive: true, force: true })
    }
  }
  return outfile
}
