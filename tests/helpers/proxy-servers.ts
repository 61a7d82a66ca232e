/**
 * Real proxies for tests, from Debian: tinyproxy (HTTP, CONNECT included) and microsocks (SOCKS5, optionally with a
 * user and password), on free loopback ports, each dialling out from its own loopback address (127.0.0.4 and
 * 127.0.0.5) so a fake upstream can tell from the peer address that a request came through it. Stopped by the PID
 * this process started. `.ci/run` installs both when missing.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export const HTTP_PROXY_EGRESS = '127.0.0.4'
export const SOCKS_PROXY_EGRESS = '127.0.0.5'

export interface ProxyServer {
  url: string
  stop(): Promise<void>
}

const TINYPROXY = '/usr/bin/tinyproxy'
const MICROSOCKS = '/usr/bin/microsocks'
export const hasProxies = (): boolean => existsSync(TINYPROXY) && existsSync(MICROSOCKS)

function freePort(): number {
  const probe = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } })
  const port = probe.port
  probe.stop(true)
  return port
}

/** Ready once it accepts a connection (each failed try waits for the refusal, never a fixed sleep past 10 s in all). */
async function accepting(port: number): Promise<void> {
  const deadline = performance.now() + 10_000
  while (performance.now() < deadline) {
    const ok = await Bun.connect({ hostname: '127.0.0.1', port, socket: { data() {} } }).then(
      (s) => (s.end(), true),
      () => false,
    )
    if (ok) return
    await Bun.sleep(20)
  }
  throw new Error(`proxy on port ${port} never accepted a connection`)
}

export async function startHttpProxy(): Promise<ProxyServer> {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-tinyproxy-'))
  const port = freePort()
  const conf = join(dir, 'tinyproxy.conf')
  writeFileSync(conf, [`Port ${port}`, 'Listen 127.0.0.1', `Bind ${HTTP_PROXY_EGRESS}`, 'Timeout 30', 'MaxClients 20', 'Allow 127.0.0.1', `PidFile "${join(dir, 'pid')}"`, 'LogLevel Critical'].join('\n'))
  const child = Bun.spawn([TINYPROXY, '-d', '-c', conf], { stdout: 'ignore', stderr: 'ignore' })
  await accepting(port)
  return {
    url: `http://127.0.0.1:${port}`,
    async stop() {
      child.kill()
      await child.exited
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

export async function startSocksProxy(auth?: { user: string; password: string }): Promise<ProxyServer> {
  const port = freePort()
  const args = [MICROSOCKS, '-i', '127.0.0.1', '-p', String(port), '-b', SOCKS_PROXY_EGRESS, ...(auth ? ['-u', auth.user, '-P', auth.password] : [])]
  const child = Bun.spawn(args, { stdout: 'ignore', stderr: 'ignore' })
  await accepting(port)
  const credentials = auth ? `${encodeURIComponent(auth.user)}:${encodeURIComponent(auth.password)}@` : ''
  return {
    url: `socks5://${credentials}127.0.0.1:${port}`,
    async stop() {
      child.kill()
      await child.exited
    },
  }
}
