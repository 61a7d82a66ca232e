/**
 * The outbound guard connects to the address it checked, never to a second answer for the same name (DNS
 * rebinding): the URL carries the checked IP, the Host header and the TLS server name carry the original name.
 * Lookups here come from a test resolver; the servers listen on 127.0.0.2 and 127.0.0.3 (Linux loopback is /8).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { createOutbound, OutboundRedirected, OutboundRefused } from '../../src/outbound/fetch'
import { createResolver } from '../../src/outbound/resolver'

// a self-signed certificate for upstream.test (valid until 2076), made for these tests only
const CERT = readFileSync(join(import.meta.dir, '../fixtures/tls/upstream-test.crt'), 'utf8')
const KEY = readFileSync(join(import.meta.dir, '../fixtures/tls/upstream-test.key'), 'utf8')

interface Heard {
  address: string
  host: string | null
  path: string
}

const heard: Heard[] = []
const listen = (hostname: string, port = 0, tls?: { cert: string; key: string }) =>
  Bun.serve({
    hostname,
    port,
    tls,
    fetch(req) {
      const url = new URL(req.url)
      heard.push({ address: hostname, host: req.headers.get('host'), path: url.pathname })
      return url.pathname === '/redirect' ? new Response(null, { status: 302, headers: { location: 'http://127.0.0.1/' } }) : Response.json({ at: hostname })
    },
  })

let first: ReturnType<typeof listen>
let second: ReturnType<typeof listen>
let secure: ReturnType<typeof listen>
beforeAll(() => {
  first = listen('127.0.0.2')
  second = listen('127.0.0.3', first.port) // the same port: only the address tells them apart
  secure = listen('127.0.0.2', 0, { cert: CERT, key: KEY })
})
afterAll(() => {
  for (const server of [first, second, secure]) server.stop(true)
})

/** A resolver whose answers the test sets, counting lookups; and a clock the test moves. */
function scripted(answers: Record<string, string[]>) {
  let lookups = 0
  let clock = 0
  const resolver = createResolver(async (host) => {
    lookups++
    const answer = answers[host]
    if (!answer) throw new Error(`ENOTFOUND ${host}`)
    return answer
  }, () => clock)
  return {
    resolver,
    answers,
    lookups: () => lookups,
    advance: (ms: number) => void (clock += ms),
  }
}

describe('the connection goes to the checked address', () => {
  test('a name that answers differently the next time (rebinding) is still dialled at the first answer until it expires', async () => {
    heard.length = 0
    const dns = scripted({ 'rebind.test': ['127.0.0.2'] })
    const outbound = createOutbound({ allowPrivate: () => true, resolver: dns.resolver })
    const url = `http://rebind.test:${first.port}/v1/models`
    expect(await (await outbound.fetch(url)).json()).toEqual({ at: '127.0.0.2' })
    dns.answers['rebind.test'] = ['127.0.0.3'] // the name now points elsewhere
    dns.advance(29_000)
    expect(await (await outbound.fetch(url)).json()).toEqual({ at: '127.0.0.2' }) // the checked answer, not a new lookup
    dns.advance(2_000) // past 30 s: looked up and checked again, then dialled there
    expect(await (await outbound.fetch(url)).json()).toEqual({ at: '127.0.0.3' })
    expect(dns.lookups()).toBe(2)
    expect(heard.map((h) => h.host)).toEqual([`rebind.test:${first.port}`, `rebind.test:${first.port}`, `rebind.test:${first.port}`])
  })

  test('a name whose answer is checked public is dialled at that public address, never at the loopback a second resolution would give', async () => {
    heard.length = 0
    // a public address (unreachable from the test machine, so the call fails: but not at loopback)
    const dns = scripted({ 'attacker.test': ['93.184.216.34'] })
    const outbound = createOutbound({ allowPrivate: () => false, resolver: dns.resolver })
    const failed = await outbound.fetch(`http://attacker.test:${first.port}/`, { signal: AbortSignal.timeout(1_000) }).catch((e: Error) => e)
    expect(failed).toBeInstanceOf(Error)
    expect(failed).not.toBeInstanceOf(OutboundRefused)
    expect(heard).toHaveLength(0) // whatever the system resolver says about attacker.test, the loopback servers heard nothing
    expect(dns.lookups()).toBe(1)
  })

  test('with private networks off, a name with any private answer is refused before a connection', async () => {
    heard.length = 0
    const dns = scripted({ 'mixed.test': ['93.184.216.34', '127.0.0.2'] })
    const outbound = createOutbound({ allowPrivate: () => false, resolver: dns.resolver })
    await expect(outbound.fetch(`http://mixed.test:${first.port}/`)).rejects.toThrow('mixed.test resolves to 127.0.0.2, a loopback address')
    expect(heard).toHaveLength(0)
  })

  test('HTTPS: the certificate is checked against the name, and SNI and Host carry it, while the IP is dialled', async () => {
    heard.length = 0
    const dns = scripted({ 'upstream.test': ['127.0.0.2'], 'impostor.test': ['127.0.0.2'] })
    const outbound = createOutbound({ allowPrivate: () => true, resolver: dns.resolver })
    const res = await outbound.fetch(`https://upstream.test:${secure.port}/secure`, { tls: { ca: CERT } } as RequestInit)
    expect(await res.json()).toEqual({ at: '127.0.0.2' })
    expect(heard[0]).toMatchObject({ host: `upstream.test:${secure.port}`, path: '/secure' })
    // the same server under a name its certificate does not carry: refused by the TLS check, not waved through by IP
    const wrong = await outbound.fetch(`https://impostor.test:${secure.port}/secure`, { tls: { ca: CERT } } as RequestInit).catch((e: Error) => e)
    expect(wrong).toBeInstanceOf(Error)
    expect(String((wrong as Error & { code?: string }).code ?? (wrong as Error).message)).toMatch(/ALTNAME|CERT|certificate/i)
    expect((wrong as Error).message).not.toContain('127.0.0.2') // Bun's message names the URL the caller gave
    expect(heard).toHaveLength(1)
  })

  test('a redirect is an error naming its target, not followed', async () => {
    heard.length = 0
    const dns = scripted({ 'redirects.test': ['127.0.0.2'] })
    const outbound = createOutbound({ allowPrivate: () => true, resolver: dns.resolver })
    const error = await outbound.fetch(`http://redirects.test:${first.port}/redirect`).catch((e: Error) => e)
    expect(error).toBeInstanceOf(OutboundRedirected)
    expect((error as OutboundRedirected).status).toBe(302)
    expect((error as Error).message).toContain('redirected to http://127.0.0.1/')
    expect(heard).toHaveLength(1)
  })

  test('what is not http(s) is refused', async () => {
    const outbound = createOutbound({ allowPrivate: () => true })
    await expect(outbound.fetch('file:///etc/passwd')).rejects.toBeInstanceOf(OutboundRefused)
    await expect(outbound.fetch('not a url')).rejects.toBeInstanceOf(OutboundRefused)
  })
})
