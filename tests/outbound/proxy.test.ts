/**
 * A channel's proxy goes through the outbound guard: a real HTTP proxy (tinyproxy) and a real SOCKS5 proxy
 * (microsocks), each dialling out from its own loopback address, so the fake upstream sees by the peer address
 * that the request came through the proxy. The target is resolved and checked here and the proxy is handed the
 * checked IP; the proxy's own address is checked by the same rules.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { createOutbound, OutboundRefused } from '../../src/outbound/fetch'
import { createResolver } from '../../src/outbound/resolver'
import { hasProxies, HTTP_PROXY_EGRESS, SOCKS_PROXY_EGRESS, startHttpProxy, startSocksProxy, type ProxyServer } from '../helpers/proxy-servers'

const CERT = readFileSync(join(import.meta.dir, '../fixtures/tls/upstream-test.crt'), 'utf8')
const KEY = readFileSync(join(import.meta.dir, '../fixtures/tls/upstream-test.key'), 'utf8')

interface Heard {
  peer: string
  host: string | null
  body: string
}

const heard: Heard[] = []
const listen = (tls?: { cert: string; key: string }) =>
  Bun.serve({
    hostname: '127.0.0.2',
    port: 0,
    tls,
    async fetch(req, server) {
      heard.push({ peer: server.requestIP(req)?.address ?? '', host: req.headers.get('host'), body: await req.text() })
      return Response.json({ ok: true })
    },
  })

let plain: ReturnType<typeof listen>
let secure: ReturnType<typeof listen>
let http: ProxyServer
let socks: ProxyServer
let socksAuth: ProxyServer

// the upstream is named upstream.test: only this resolver knows it (what the proxies would resolve it to is never asked)
const resolver = createResolver(async (host) => {
  if (host === 'upstream.test') return ['127.0.0.2']
  if (host === 'proxy.test') return ['127.0.0.1']
  throw new Error(`ENOTFOUND ${host}`)
})

describe.skipIf(!hasProxies())('a channel proxy', () => {
  beforeAll(async () => {
    plain = listen()
    secure = listen({ cert: CERT, key: KEY })
    ;[http, socks, socksAuth] = await Promise.all([startHttpProxy(), startSocksProxy(), startSocksProxy({ user: 'gw', password: 's3cret:x' })])
  })
  afterAll(async () => {
    plain.stop(true)
    secure.stop(true)
    await Promise.all([http.stop(), socks.stop(), socksAuth.stop()])
  })

  const outbound = (allowPrivate = true) => createOutbound({ allowPrivate: () => allowPrivate, resolver })

  test('an HTTP proxy carries a plain-HTTP call: the upstream hears it from the proxy', async () => {
    heard.length = 0
    const response = await outbound().fetch(`http://upstream.test:${plain.port}/v1/chat`, { method: 'POST', body: '{"a":1}', proxy: http.url })
    expect(await response.json()).toEqual({ ok: true })
    expect(heard).toEqual([{ peer: HTTP_PROXY_EGRESS, host: `127.0.0.2:${plain.port}`, body: '{"a":1}' }])
  })

  test('an HTTP proxy tunnels HTTPS (CONNECT to the checked IP), the TLS name and Host still the upstream’s', async () => {
    heard.length = 0
    const response = await outbound().fetch(`https://upstream.test:${secure.port}/v1/chat`, { method: 'POST', body: 'x', proxy: http.url, tls: { ca: CERT } } as RequestInit)
    expect(response.status).toBe(200)
    expect(heard).toEqual([{ peer: HTTP_PROXY_EGRESS, host: `upstream.test:${secure.port}`, body: 'x' }])
  })

  test('a SOCKS5 proxy carries plain HTTP and HTTPS', async () => {
    heard.length = 0
    await outbound().fetch(`http://upstream.test:${plain.port}/p?q=1`, { method: 'POST', body: 'plain', proxy: socks.url })
    await outbound().fetch(`https://upstream.test:${secure.port}/s`, { method: 'POST', body: 'tls', proxy: socks.url, tls: { ca: CERT } } as RequestInit)
    expect(heard).toEqual([
      { peer: SOCKS_PROXY_EGRESS, host: `upstream.test:${plain.port}`, body: 'plain' },
      { peer: SOCKS_PROXY_EGRESS, host: `upstream.test:${secure.port}`, body: 'tls' },
    ])
  })

  test('a SOCKS5 proxy with a user and password; a wrong password fails the call, nothing reaches the upstream', async () => {
    heard.length = 0
    const ok = await outbound().fetch(`http://upstream.test:${plain.port}/a`, { method: 'POST', body: 'auth', proxy: socksAuth.url })
    expect(ok.status).toBe(200)
    const wrong = socksAuth.url.replace('s3cret%3Ax', 'nope')
    const refused = await outbound().fetch(`http://upstream.test:${plain.port}/b`, { method: 'POST', body: 'no', proxy: wrong }).then((r) => r.status, (e: Error) => e.message)
    expect(refused).not.toBe(200)
    expect(heard.map((h) => h.body)).toEqual(['auth'])
  })

  test('the proxy’s own address is checked: a loopback proxy is refused while private networks are not allowed', async () => {
    // the target is allowed here (PROVIDER_ENDPOINTS would trust it): only the proxy decides
    const guard = createOutbound({ allowPrivate: () => false, resolver: createResolver(async (h) => (h === 'proxy.test' ? ['127.0.0.1'] : ['93.184.216.34'])) })
    const error = await guard.fetch('http://public.test/x', { proxy: 'http://proxy.test:3128' }).catch((e: Error) => e)
    expect(error).toBeInstanceOf(OutboundRefused)
    expect((error as Error).message).toContain('proxy refused')
  })

  test('the target is still checked behind a proxy: a metadata address is refused before the proxy is dialled', async () => {
    const error = await outbound().fetch('http://169.254.169.254/latest', { proxy: http.url }).catch((e: Error) => e)
    expect(error).toBeInstanceOf(OutboundRefused)
  })
})
