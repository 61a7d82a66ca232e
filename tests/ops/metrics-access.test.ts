import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { networkInterfaces, tmpdir } from 'node:os'
import { join } from 'node:path'
import { startTestApp, type TestApp } from '../helpers/test-app'
import { serve, type Served } from './process'

/**
 * Issue #28 item 13: without METRICS_TOKEN, /metrics (which names every channel) was public. Now it answers only
 * a client whose socket peer is a loopback address and that came through no proxy; anyone else is told to set
 * METRICS_TOKEN. A forwarding header never opens it: it can only close it (a proxy on the same host connects from
 * loopback for strangers).
 */
const NOT_LOCAL = /set METRICS_TOKEN/

describe('no METRICS_TOKEN, the client on loopback', () => {
  let app: TestApp
  beforeAll(async () => {
    app = await startTestApp()
  })
  afterAll(() => app.stop())

  test('a scrape from 127.0.0.1 is answered', async () => {
    const response = await app.fetch('/metrics')
    expect(response.status).toBe(200)
    expect(await response.text()).toContain('# TYPE tollgate_relay_requests_total counter')
  })

  test('relayed by a proxy (any forwarding header, whatever address it names): 403 naming METRICS_TOKEN', async () => {
    for (const headers of [{ 'x-forwarded-for': '127.0.0.1' }, { forwarded: 'for=127.0.0.1' }, { 'x-real-ip': '127.0.0.1' }] as Record<string, string>[]) {
      const response = await app.fetch('/metrics', { headers })
      expect(response.status).toBe(403)
      const text = await response.text()
      expect(text).toMatch(NOT_LOCAL)
      expect(text).not.toContain('tollgate_channel_status')
    }
  })
})

/** An address of this machine that is not loopback, to reach a server listening on all interfaces from outside lo. */
const outside = Object.values(networkInterfaces())
  .flat()
  .find((i) => i && !i.internal && i.family === 'IPv4')?.address

describe.skipIf(!outside)('a client on another interface', () => {
  const dirs: string[] = []
  const servers: Served[] = []
  const start = async (env: Record<string, string>) => {
    const dir = mkdtempSync(join(tmpdir(), 'tollgate-metrics-access-'))
    dirs.push(dir)
    const server = await serve(dir, { HOST: '0.0.0.0', LOG_LEVEL: 'warn', ...env })
    servers.push(server)
    return `http://${outside}:${server.port}`
  }
  afterAll(async () => {
    for (const server of servers) await server.stop('SIGKILL')
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
  })

  test('no METRICS_TOKEN: 403 that says to set it; /healthz still answers; loopback still scrapes', async () => {
    const base = await start({})
    const response = await fetch(`${base}/metrics`)
    expect(response.status).toBe(403)
    const text = await response.text()
    expect(text).toMatch(NOT_LOCAL)
    expect(text).not.toContain('tollgate_')
    expect((await fetch(`${base}/healthz`)).status).toBe(200)
    expect((await fetch(`${servers.at(-1)!.url}/metrics`)).status).toBe(200)
  })

  test('with METRICS_TOKEN: the bearer token opens it from anywhere, nothing else does', async () => {
    const base = await start({ METRICS_TOKEN: 'scrape-secret-456' })
    expect((await fetch(`${base}/metrics`)).status).toBe(401)
    expect((await fetch(`${base}/metrics`, { headers: { authorization: 'Bearer scrape-secret-456' } })).status).toBe(200)
  })
})
