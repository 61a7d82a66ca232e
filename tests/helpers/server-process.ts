/** What the throwaway database servers of the tests share: a free port, a command's output, a PID's life. */

export interface TestServer {
  /** a URL (postgres://…, mysql://…) for the fixture database, with a password that needs URL-encoding */
  url: string
  host: string
  port: number
  user: string
  password: string
  database: string
  /** the server's PID (stopped by it) */
  pid: number
  stop(): Promise<void>
}

/** A loopback port nobody listens on right now (Bun would let two servers share one silently). */
export async function freePort(): Promise<number> {
  const server = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } })
  const port = server.port
  server.stop(true)
  return port
}

/** Run a command to its end (async: never blocks an in-process server's event loop). */
export async function run(cmd: string[], env: Record<string, string> = {}): Promise<{ code: number; out: string }> {
  const proc = Bun.spawn(cmd, { stdout: 'pipe', stderr: 'pipe', env: { ...process.env, ...env } })
  const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()])
  return { code: await proc.exited, out: out + err }
}

export const isRoot = (): boolean => process.getuid?.() === 0

export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

export async function waitGone(pid: number, ms = 15_000): Promise<void> {
  const until = Date.now() + ms
  while (pidAlive(pid) && Date.now() < until) await Bun.sleep(50)
}
