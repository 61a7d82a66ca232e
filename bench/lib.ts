/** Small helpers shared by the bench: child processes that always die with us, ports, RSS, percentiles. */
import { readdirSync, readFileSync } from 'node:fs'
import type { Subprocess } from 'bun'

const children = new Set<Subprocess>()
let hooked = false

function killAll(): void {
  for (const child of children) {
    try {
      child.kill('SIGKILL')
    } catch {}
  }
  children.clear()
}

/** Kill every child we started when this process ends, however it ends. */
function hookExit(): void {
  if (hooked) return
  hooked = true
  process.on('exit', killAll)
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => {
      killAll()
      process.exit(130)
    })
  }
  process.on('uncaughtException', (error) => {
    console.error(error)
    killAll()
    process.exit(1)
  })
  process.on('unhandledRejection', (error) => {
    console.error(error)
    killAll()
    process.exit(1)
  })
}

/** The grown Claude Code turns the large-body benches send, by name (`agentBody(bytes)`; 23k is the captured turn itself). */
export const AGENT_SIZES: Readonly<Record<string, number>> = { '23k': 23_000, '35k': 35_000, '200k': 200_000, '1m': 1 << 20, '4m': 4 << 20 }

export interface Child {
  proc: Subprocess<'ignore', 'pipe', 'pipe'>
  pid: number
  /** the first stdout line that parsed as JSON, or the first line that matched `ready` */
  /** SIGTERM, then SIGKILL after `graceMs` (default 3 s) */
  stop(graceMs?: number): Promise<void>
  /** everything it printed so far (kept short) */
  output(): string
}

/** Start a child process; `ready` resolves once a line of its output satisfies `isReady` (or rejects on exit/timeout). */
export async function spawnChild(
  cmd: string[],
  opts: { env?: Record<string, string | undefined>; cwd?: string; isReady: (line: string) => boolean; timeoutMs?: number; name: string },
): Promise<Child & { readyLine: string }> {
  hookExit()
  const proc = Bun.spawn(cmd, { env: { ...process.env, ...opts.env }, cwd: opts.cwd, stdin: 'ignore', stdout: 'pipe', stderr: 'pipe' })
  children.add(proc)
  let log = ''
  let readyLine: string | undefined
  const ready = Promise.withResolvers<string>()
  const pump = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder()
    let pending = ''
    const reader = stream.getReader()
    for (;;) {
      const { done, value: chunk } = await reader.read()
      if (done) break
      const text = decoder.decode(chunk, { stream: true })
      if (log.length < 20_000) log += text
      pending += text
      let nl: number
      while ((nl = pending.indexOf('\n')) >= 0) {
        const line = pending.slice(0, nl)
        pending = pending.slice(nl + 1)
        if (readyLine === undefined && opts.isReady(line)) {
          readyLine = line
          ready.resolve(line)
        }
      }
      if (pending.length > 100_000) pending = ''
    }
  }
  void pump(proc.stdout).catch(() => {})
  void pump(proc.stderr).catch(() => {})
  void proc.exited.then((code) => {
    children.delete(proc)
    ready.reject(new Error(`${opts.name} exited with ${code} before it was ready:\n${log.slice(-2000)}`))
  })
  // a hang detector: tests/launch/footprint.test.ts starts the binary this way, and a loaded two-core machine took over 20 s
  const timeoutMs = opts.timeoutMs ?? 60_000
  const timer = setTimeout(() => ready.reject(new Error(`${opts.name} not ready after ${timeoutMs} ms:\n${log.slice(-2000)}`)), timeoutMs)
  try {
    readyLine = await ready.promise
  } catch (error) {
    proc.kill('SIGKILL')
    throw error
  } finally {
    clearTimeout(timer)
  }
  return {
    proc,
    pid: proc.pid,
    readyLine,
    output: () => log,
    async stop(graceMs = 3000) {
      if (proc.exitCode !== null || proc.signalCode !== null) return
      proc.kill('SIGTERM')
      const dead = await Promise.race([proc.exited.then(() => true), Bun.sleep(graceMs).then(() => false)])
      if (!dead) proc.kill('SIGKILL')
      children.delete(proc)
    },
  }
}

/** Run a child to completion and return its stdout (stderr is kept for errors). */
export async function runChild(cmd: string[], opts: { env?: Record<string, string | undefined>; timeoutMs: number }): Promise<{ code: number; stdout: string; stderr: string }> {
  hookExit()
  const proc = Bun.spawn(cmd, { env: { ...process.env, ...opts.env }, stdin: 'ignore', stdout: 'pipe', stderr: 'pipe' })
  children.add(proc)
  const timer = setTimeout(() => proc.kill('SIGKILL'), opts.timeoutMs)
  try {
    const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
    return { code, stdout, stderr }
  } finally {
    clearTimeout(timer)
    children.delete(proc)
  }
}

export function freePort(): number {
  const server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response() })
  const port = server.port!
  server.stop(true)
  return port
}

/** Resident set size of a process in MB, from /proc/<pid>/status (VmRSS); NaN when unreadable. */
export function rssMb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8')
    const m = /VmRSS:\s+(\d+)\s+kB/.exec(status)
    return m ? Number(m[1]) / 1024 : NaN
  } catch {
    return NaN
  }
}

/** RSS split into anonymous and file-backed pages (RssAnon, RssFile), MB; NaN when unreadable. */
export function rssPartsMb(pid: number): { anon: number; file: number } {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8')
    const field = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)\\s+kB`).exec(status)?.[1] ?? NaN) / 1024
    return { anon: field('RssAnon'), file: field('RssFile') }
  } catch {
    return { anon: NaN, file: NaN }
  }
}

/**
 * CPU milliseconds each of a process's JIT compiler threads (JavaScriptCore's `JITWorker`) has run so far,
 * by thread id, from /proc/<pid>/task/<tid>/schedstat (nanoseconds); empty when unreadable. JSC ends idle
 * compiler threads and starts new ones, so compare two readings with `jitMsBetween`, not their sums.
 */
export function jitThreadsMs(pid: number): Map<string, number> {
  const out = new Map<string, number>()
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        if (!readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').startsWith('JIT')) continue
        out.set(tid, Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]) / 1e6)
      } catch {} // the thread ended between the listing and the read
    }
  } catch {}
  return out
}

/** JIT CPU ms spent between two readings (threads that ended since lose only their last stretch). */
export function jitMsBetween(before: Map<string, number>, after: Map<string, number>): number {
  let ms = 0
  for (const [tid, now] of after) ms += Math.max(0, now - (before.get(tid) ?? 0))
  return ms
}

/** Sample a process's RSS every `everyMs` until stopped. */
export function rssSampler(pid: number, everyMs = 100) {
  const samples: number[] = []
  const timer = setInterval(() => {
    const v = rssMb(pid)
    if (Number.isFinite(v)) samples.push(v)
  }, everyMs)
  return {
    samples,
    stop() {
      clearInterval(timer)
      return { peak: samples.length ? Math.max(...samples) : rssMb(pid), samples }
    },
  }
}

/** Percentile (0–100) of unsorted numbers, nearest-rank. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN
  const sorted = [...values].sort((a, b) => a - b)
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))
  return sorted[rank]!
}

export function median(values: readonly number[]): number {
  return percentile(values, 50)
}

export const round = (n: number, digits = 3) => (Number.isFinite(n) ? Number(n.toFixed(digits)) : null)

export async function waitUntil(check: () => Promise<boolean> | boolean, timeoutMs: number, everyMs = 50): Promise<boolean> {
  const end = performance.now() + timeoutMs
  while (performance.now() < end) {
    try {
      if (await check()) return true
    } catch {}
    await Bun.sleep(everyMs)
  }
  return false
}

/**
 * Start a binary the way it starts from disk: write its pages back and drop them from the page cache
 * (`posix_fadvise(DONTNEED)`, this file only, no privileges needed). A binary written seconds earlier
 * (as `--gateway=build` does) maps 4–5 MB more of its own file into RSS than the same binary read back
 * from disk (45.4 vs 40.8 MB file-backed, same build, 2026-11-21), which is page-cache state, not the
 * program. Returns false where it cannot (no libc, not Linux): the RSS figures then include that.
 */
export function dropFromPageCache(path: string): boolean {
  if (process.platform !== 'linux') return false
  try {
    const { dlopen, FFIType } = require('bun:ffi') as typeof import('bun:ffi')
    const libc = dlopen('libc.so.6', { posix_fadvise: { args: [FFIType.i32, FFIType.i64, FFIType.i64, FFIType.i32], returns: FFIType.i32 } })
    const { openSync, fsyncSync, closeSync } = require('node:fs') as typeof import('node:fs')
    const fd = openSync(path, 'r')
    try {
      fsyncSync(fd)
      const POSIX_FADV_DONTNEED = 4
      return libc.symbols.posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED) === 0
    } finally {
      closeSync(fd)
      libc.close()
    }
  } catch {
    return false
  }
}

/** CPU ms a process has used so far (utime + stime from /proc/<pid>/stat, clock ticks of 10 ms). */
export function cpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
    return (Number(fields[11]) + Number(fields[12])) * 10
  } catch {
    return 0 // gone
  }
}

/** CPU ms of a process and its children (a PostgreSQL postmaster and its backends), those alive now. */
export function treeCpuMs(pid: number): number {
  let total = cpuMs(pid)
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const fields = readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]!.split(' ')
      if (Number(fields[1]) === pid) total += (Number(fields[11]) + Number(fields[12])) * 10
    } catch {}
  }
  return total
}
