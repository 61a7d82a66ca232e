import { dlopen, FFIType, ptr, type Pointer } from 'bun:ffi'

/**
 * Bun's fetch runs at most 256 requests at once (per process) unless `BUN_CONFIG_MAX_HTTP_REQUESTS` is
 * set, and it reads that variable once, at process start: setting `process.env` later changes nothing.
 * A gateway holds one upstream request per client request, so with the default the 257th concurrent
 * stream waits in a queue until another ends. The gateway's inbound connections are the real bound, so
 * it raises the cap to Bun's maximum.
 */
export const MAX_HTTP_REQUESTS = '65535'

/**
 * When the variable is not set, replace this process with itself with the variable set: `execve`, so the
 * pid, stdio, signals and the parent (systemd, docker, a shell) stay the same and nothing runs twice.
 * Set `BUN_CONFIG_MAX_HTTP_REQUESTS` yourself to choose another cap (then nothing is re-executed). If the
 * C library cannot be reached (no FFI, an unusual libc), it warns and goes on with Bun's default.
 */
export function ensureMaxHttpRequests(): void {
  if (process.env.BUN_CONFIG_MAX_HTTP_REQUESTS || process.platform === 'win32') return
  // a compiled binary's argv[1] is its embedded entry (/$bunfs/…): it re-runs as itself, flags included
  const compiled = Bun.main.startsWith('/$bunfs/') || Bun.main.startsWith('B:/~BUN/')
  const argv = compiled ? [process.execPath, ...process.argv.slice(2)] : [process.execPath, ...process.execArgv, ...process.argv.slice(1)]
  const env = Object.entries({ ...process.env, BUN_CONFIG_MAX_HTTP_REQUESTS: MAX_HTTP_REQUESTS }).map(([k, v]) => `${k}=${v ?? ''}`)
  try {
    const execve = openExecve()
    const cstrings = (list: string[]) => {
      const buffers = list.map((s) => Buffer.from(`${s}\0`))
      const pointers = new BigUint64Array(buffers.length + 1)
      buffers.forEach((b, i) => (pointers[i] = BigInt(ptr(b))))
      return { buffers, pointers }
    }
    const path = Buffer.from(`${process.execPath}\0`)
    const a = cstrings(argv)
    const e = cstrings(env)
    execve(ptr(path), ptr(a.pointers), ptr(e.pointers)) // returns only on failure
    throw new Error('execve failed')
  } catch (error) {
    console.warn(`tollgate: could not raise BUN_CONFIG_MAX_HTTP_REQUESTS (${(error as Error).message}); fetch allows 256 concurrent upstream requests: set it in the environment`)
  }
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
