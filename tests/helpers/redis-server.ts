/**
 * A throwaway Redis for tests: Debian's `redis-server` on a free loopback port, in a temp directory, as the
 * current user, with no persistence (`--save '' --appendonly no`). Started with async Bun.spawn (tests run
 * in-process servers beside it), ready once it answers PING, stopped by the PID this process started.
 * `kill()` and `start()` let a test take Redis away and bring it back on the same port. With `tls`, it serves
 * TLS only (rediss://) with a certificate for 127.0.0.1 signed by a CA made here (`ca`, PEM).
 */
import { RedisClient } from 'bun'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export interface RedisServer {
  /** redis://127.0.0.1:<port>/0, or rediss:// with tls */
  url: string
  port: number
  /** PID of the running server (0 while stopped) */
  readonly pid: number
  /** the CA certificate (PEM) that signed the server's certificate, with tls */
  ca?: string
  /** Stop the server by its PID (SIGKILL by default, as a crash) and wait until it is gone. */
  kill(signal?: 'SIGKILL' | 'SIGTERM'): Promise<void>
  /** Start it again on the same port (empty: nothing was persisted). */
  start(): Promise<void>
  /** Stop and remove the directory. */
  stop(): Promise<void>
}

const SERVER = ['/usr/bin/redis-server', '/usr/local/bin/redis-server'].find((p) => existsSync(p))

export const hasRedis = (): boolean => SERVER !== undefined

async function freePort(): Promise<number> {
  const probe = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } })
  const port = probe.port
  probe.stop(true)
  return port
}

async function run(cmd: string[], cwd: string): Promise<void> {
  const proc = Bun.spawn(cmd, { cwd, stdout: 'pipe', stderr: 'pipe' })
  const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()])
  if ((await proc.exited) !== 0) throw new Error(`${cmd.join(' ')} failed: ${out}${err}`)
}

/** A CA and a server certificate for 127.0.0.1, made with the openssl command. */
async function makeCertificates(dir: string): Promise<void> {
  await run(['openssl', 'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=tollgate test CA', '-keyout', 'ca.key', '-out', 'ca.crt'], dir)
  await run(['openssl', 'req', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=127.0.0.1', '-keyout', 'server.key', '-out', 'server.csr'], dir)
  await Bun.write(join(dir, 'ext.cnf'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n')
  await run(['openssl', 'x509', '-req', '-in', 'server.csr', '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-days', '1', '-extfile', 'ext.cnf', '-out', 'server.crt'], dir)
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

export async function startRedis(options: { tls?: boolean } = {}): Promise<RedisServer> {
  if (!SERVER) throw new Error('no redis-server binary (apt-get install redis-server)')
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-redis-'))
  const port = await freePort()
  if (options.tls) await makeCertificates(dir)
  const listen = options.tls
    ? ['--port', '0', '--tls-port', String(port), '--tls-cert-file', 'server.crt', '--tls-key-file', 'server.key', '--tls-ca-cert-file', 'ca.crt', '--tls-auth-clients', 'no']
    : ['--port', String(port)]
  const url = `${options.tls ? 'rediss' : 'redis'}://127.0.0.1:${port}/0`
  const ca = options.tls ? readFileSync(join(dir, 'ca.crt'), 'utf8') : undefined
  let proc: ReturnType<typeof Bun.spawn> | undefined

  async function start(): Promise<void> {
    const p = Bun.spawn([SERVER!, '--bind', '127.0.0.1', ...listen, '--save', '', '--appendonly', 'no', '--dir', dir, '--logfile', 'redis.log'], {
      cwd: dir,
      stdout: 'ignore',
      stderr: 'pipe',
    })
    proc = p
    const until = Date.now() + 15_000
    for (;;) {
      if (p.exitCode !== null) throw new Error(`redis-server exited ${p.exitCode}: ${existsSync(join(dir, 'redis.log')) ? readFileSync(join(dir, 'redis.log'), 'utf8') : ''}`)
      const client = new RedisClient(url, { autoReconnect: false, enableOfflineQueue: false, connectionTimeout: 1000, tls: ca ? { ca } : undefined })
      const pong = await client
        .connect()
        .then(() => client.send('PING', []))
        .catch(() => undefined)
      client.close()
      if (pong === 'PONG') return
      if (Date.now() > until) throw new Error('redis-server did not answer PING within 15 s')
      await Bun.sleep(25)
    }
  }

  async function kill(signal: 'SIGKILL' | 'SIGTERM' = 'SIGKILL'): Promise<void> {
    const p = proc
    proc = undefined
    if (!p || p.exitCode !== null) return
    process.kill(p.pid, signal)
    await p.exited
    while (alive(p.pid)) await Bun.sleep(10)
  }

  await start()
  return {
    url,
    port,
    ca,
    get pid() {
      return proc && proc.exitCode === null ? proc.pid : 0
    },
    kill,
    start,
    async stop() {
      await kill('SIGTERM')
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
