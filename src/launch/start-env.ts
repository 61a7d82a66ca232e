import { dlopen, FFIType, ptr, type Pointer } from 'bun:ffi'

/**
 * Settings the runtime reads once, at process start, from the environment: setting `process.env` later changes
 * nothing. An operator's own value of each is kept.
 * - `BUN_CONFIG_MAX_HTTP_REQUESTS`: Bun's fetch runs at most 256 requests at once unless it is set. A gateway
 *   holds one upstream request per client request, so with the default the 257th concurrent stream would wait
 *   for another to end; the inbound connections are the real bound, so the cap is raised to Bun's maximum.
 * - `MIMALLOC_PURGE_DELAY` (ms): how long Bun's allocator keeps freed memory before handing its pages back to
 *   the kernel. Handed back soon, every large body's buffers (Bun's read, the Blob sent upstream) fault fresh
 *   pages in, up to ~900 per MB: a 4 MB passthrough added ~6 ms with the variable unset, ~4 ms at 1000. A burst
 *   peaks a little higher, and a quiet gateway still hands them back (bench/README.md, issue #18).
 */
export const START_ENV = { BUN_CONFIG_MAX_HTTP_REQUESTS: '65535', MIMALLOC_PURGE_DELAY: '1000' } as const

/**
 * When any of START_ENV is not set, replace this process with itself with the missing ones set: `execve`, so the
 * pid, stdio, signals and the parent (systemd, docker, a shell) stay the same and nothing runs twice. If the C
 * library cannot be reached (no FFI, an unusual libc), it warns and goes on with Bun's defaults.
 */
export function ensureStartEnv(): void {
  if (process.platform === 'win32') return
  const missing = Object.entries(START_ENV).filter(([name]) => !process.env[name])
  if (missing.length === 0) return
  if (underSamplingProfiler()) {
    console.warn(`tollgate: not re-executing under --cpu-prof to set ${missing.map(([name]) => name).join(' and ')}: set them in the environment`)
    return
  }
  // a compiled binary's argv[1] is its embedded entry (/$bunfs/…): it re-runs as itself, flags included
  const compiled = Bun.main.startsWith('/$bunfs/') || Bun.main.startsWith('B:/~BUN/')
  const argv = compiled ? [process.execPath, ...process.argv.slice(2)] : [process.execPath, ...process.execArgv, ...process.argv.slice(1)]
  const env = Object.entries({ ...process.env, ...Object.fromEntries(missing) }).map(([k, v]) => `${k}=${v ?? ''}`)
  try {
    execve(process.execPath, argv, env) // returns only on failure
  } catch (error) {
    const names = missing.map(([name]) => name).join(' and ')
    console.warn(`tollgate: could not set ${names} (${(error as Error).message}); Bun's defaults apply (fetch allows 256 concurrent upstream requests): set them in the environment`)
  }
}

/**
 * Bun's sampling profiler (`--cpu-prof`) stops the main thread with SIGPWR to take each sample. One that arrives
 * during `execve` stays pending across it, and the new image, which has no handler yet, dies of it (exit 158):
 * `bench/profile.ts`'s gateway died so about one start in two.
 */
function underSamplingProfiler(): boolean {
  return process.execArgv.some((arg) => arg.startsWith('--cpu-prof'))
}

function execve(path: string, argv: string[], env: string[]): never {
  const call = openExecve()
  const cstrings = (list: string[]) => {
    const buffers = list.map((s) => Buffer.from(`${s}\0`))
    const pointers = new BigUint64Array(buffers.length + 1)
    buffers.forEach((b, i) => (pointers[i] = BigInt(ptr(b))))
    return { buffers, pointers }
  }
  const file = Buffer.from(`${path}\0`)
  const a = cstrings(argv)
  const e = cstrings(env)
  call(ptr(file), ptr(a.pointers), ptr(e.pointers))
  throw new Error('execve failed')
}

type Execve = (path: Pointer, argv: Pointer, envp: Pointer) => number

function openExecve(): Execve {
  const names = process.platform === 'darwin' ? ['libc.dylib', 'libSystem.B.dylib'] : ['libc.so.6', 'libc.so']
  let lastError: unknown
  for (const name of names) {
    try {
      const lib = dlopen(name, { execve: { args: [FFIType.ptr, FFIType.ptr, FFIType.ptr], returns: FFIType.i32 } })
      return lib.symbols.execve
    } catch (error) {
      lastError = error
    }
  }
  throw lastError
}
