import { describe, expect, test } from 'bun:test'
import { clientAddress, MAX_PROXY_HOPS, parseTrustProxy, trustsPeer, type TrustedProxies, type TrustProxy } from '../../src/net/trusted-proxies'
import { clientIpOf, isHttpsRequest } from '../../src/plugins/request-context'

/** TRUST_PROXY as the server would have it (a test fails loudly on a value the parser refuses). */
function trust(raw: string): TrustedProxies {
  const parsed = parseTrustProxy(raw)
  if (!parsed || 'invalid' in parsed) throw new Error(`not a trusting TRUST_PROXY: ${raw}`)
  return parsed
}

describe('parseTrustProxy', () => {
  test.each([
    [undefined, false],
    ['', false],
    ['false', false],
    ['0', false],
    ['off', false],
    ['true', { hops: 1 }],
    ['TRUE', { hops: 1 }],
    ['1', { hops: 1 }],
    [' 2 ', { hops: 2 }],
    [String(MAX_PROXY_HOPS), { hops: MAX_PROXY_HOPS }],
  ] as const)('%p → %p', (raw, expected) => {
    expect(parseTrustProxy(raw)).toEqual(expected)
  })

  test.each([
    ['10.0.0.1'],
    ['10.0.0.0/8, 172.16.0.0/12,192.168.0.0/16'],
    ['::1'],
    ['fd00::/8,127.0.0.1'],
    ['::ffff:10.0.0.0/104'],
  ])('%p is a list of proxies', (raw) => {
    expect(trust(raw).proxies).toBeDefined()
  })

  test.each([
    ['00', 'a number of proxy hops'],
    [String(MAX_PROXY_HOPS + 1), 'a number of proxy hops'],
    ['maybe', '"maybe" is neither'],
    ['10.0.0.0/33', '"10.0.0.0/33" is neither'],
    ['10.0.0.1,,10.0.0.2', '"" is neither'],
    ['10.0.0.1, nginx', '"nginx" is neither'],
    ['fe80::1%eth0', '"fe80::1%eth0" is neither'],
    ['1.2.3.4:80', '"1.2.3.4:80" is neither'],
    ['-1', '"-1" is neither'],
  ])('%p is refused, saying why', (raw, why) => {
    const parsed = parseTrustProxy(raw)
    expect(parsed).toHaveProperty('invalid')
    expect((parsed as { invalid: string }).invalid).toContain(why)
  })
})

// [TRUST_PROXY, socket peer, X-Forwarded-For (null: none), the client]
const CASES: [string, string, string | null, string][] = [
  // one hop (TRUST_PROXY=true): the peer is the proxy, the client is what it appended or wrote
  ['true', '127.0.0.1', null, '127.0.0.1'],
  ['true', '127.0.0.1', '', '127.0.0.1'],
  ['true', '127.0.0.1', '203.0.113.7', '203.0.113.7'],
  ['true', '127.0.0.1', '10.1.2.3, 203.0.113.7', '203.0.113.7'], // a spoofed left-most entry is never read
  ['true', '127.0.0.1', '10.1.2.3,203.0.113.7', '203.0.113.7'],
  ['true', '127.0.0.1', '  203.0.113.7\t', '203.0.113.7'],
  ['true', '127.0.0.1', '2001:db8::7', '2001:db8::7'],
  ['true', '127.0.0.1', '::ffff:203.0.113.7', '203.0.113.7'],
  ['true', '::ffff:127.0.0.1', '203.0.113.7', '203.0.113.7'],
  // malformed: never an address; the walk stops at the last good one (here the peer)
  ['true', '127.0.0.1', 'garbage', '127.0.0.1'],
  ['true', '127.0.0.1', '10.1.2.3, unknown', '127.0.0.1'],
  ['true', '127.0.0.1', '203.0.113.7:4711', '127.0.0.1'],
  ['true', '127.0.0.1', '[2001:db8::7]', '127.0.0.1'],
  ['true', '127.0.0.1', '203.0.113.7,', '127.0.0.1'],
  ['true', '127.0.0.1', ',', '127.0.0.1'],
  ['true', '127.0.0.1', 'fe80::1%eth0', '127.0.0.1'],
  ['true', '127.0.0.1', '10.1.2.3 203.0.113.7', '127.0.0.1'],
  ['true', '127.0.0.1', '1.2.3.4.5', '127.0.0.1'],
  ['true', '127.0.0.1', '01.2.3.4', '127.0.0.1'],
  // two hops: the entry the second proxy appended
  ['2', '10.0.0.2', '10.1.2.3, 203.0.113.7, 10.0.0.1', '203.0.113.7'],
  ['2', '10.0.0.2', '203.0.113.7', '203.0.113.7'], // fewer entries than hops: the left-most
  ['2', '10.0.0.2', '203.0.113.7, garbage', '10.0.0.2'],
  ['2', '10.0.0.2', 'garbage, 10.0.0.1', '10.0.0.1'],
  // a list: only a listed peer's headers are read, then right to left past listed proxies
  ['127.0.0.1', '127.0.0.1', '203.0.113.7', '203.0.113.7'],
  ['127.0.0.1', '198.51.100.9', '10.1.2.3', '198.51.100.9'], // a client reaching the gateway directly
  ['127.0.0.1', '::ffff:127.0.0.1', '203.0.113.7', '203.0.113.7'],
  ['10.0.0.0/8', '10.0.0.2', '10.1.2.3, 203.0.113.7, 10.0.0.1', '203.0.113.7'],
  ['10.0.0.0/8', '10.0.0.2', '10.0.0.1', '10.0.0.1'], // every address a proxy: the left-most
  ['10.0.0.0/8', '10.0.0.2', '203.0.113.7, ::ffff:10.0.0.1', '203.0.113.7'], // an IPv4 range holds mapped addresses
  ['10.0.0.0/8', '10.0.0.2', '203.0.113.7, garbage, 10.0.0.1', '10.0.0.1'],
  ['10.0.0.0/8', '10.0.0.2', '203.0.113.7:80, 10.0.0.1', '10.0.0.1'],
  ['::1', '::1', '2001:db8::7', '2001:db8::7'],
  ['::1', '127.0.0.1', '2001:db8::7', '127.0.0.1'],
  ['fd00::/8', 'fd00::2', '2001:db8::7, fd00::1', '2001:db8::7'],
  ['::ffff:10.0.0.0/104', '10.0.0.2', '203.0.113.7', '203.0.113.7'],
  ['10.0.0.0/8', '', '10.1.2.3', ''], // no peer known: nothing forwarded is believed
]

describe('clientAddress: the right-most address that is not a trusted proxy', () => {
  test.each(CASES)('TRUST_PROXY=%p, peer %p, X-Forwarded-For %p → %p', (raw, peer, forwardedFor, client) => {
    expect(clientAddress(peer, forwardedFor, trust(raw))).toBe(client)
  })

  test('each peer gets its own answer, in any order', () => {
    const list = trust('127.0.0.1')
    expect(clientAddress('127.0.0.1', '203.0.113.7', list)).toBe('203.0.113.7')
    expect(clientAddress('198.51.100.9', '203.0.113.7', list)).toBe('198.51.100.9')
    expect(clientAddress('127.0.0.1', '203.0.113.7', list)).toBe('203.0.113.7')
  })

  test(`a header of listed proxies is read at most ${MAX_PROXY_HOPS} entries deep`, () => {
    const header = ['203.0.113.7', ...Array.from({ length: 5000 }, (_, i) => `10.0.${i >> 8}.${i & 255}`)].join(', ')
    const started = performance.now()
    const client = clientAddress('10.9.9.9', header, trust('10.0.0.0/8'))
    expect(performance.now() - started).toBeLessThan(50)
    expect(client).toBe(`10.0.${(5000 - MAX_PROXY_HOPS) >> 8}.${(5000 - MAX_PROXY_HOPS) & 255}`)
  })
})

describe('ProxyList.has', () => {
  // [TRUST_PROXY, address, listed]
  test.each([
    ['10.0.0.0/8', '10.255.255.255', true],
    ['10.0.0.0/8', '11.0.0.0', false],
    ['10.0.0.0/8', '9.255.255.255', false],
    ['10.1.2.3', '10.1.2.3', true],
    ['10.1.2.3', '10.1.2.4', false],
    ['10.1.2.3/32', '10.1.2.3', true],
    ['0.0.0.0/0', '203.0.113.7', true],
    ['0.0.0.0/0', '2001:db8::7', false],
    ['128.0.0.0/1', '255.1.1.1', true],
    ['128.0.0.0/1', '127.1.1.1', false],
    ['10.0.0.0/8', '::ffff:10.1.2.3', true],
    ['10.0.0.0/8', '::ffff:a01:203', true],
    ['::ffff:10.0.0.0/104', '10.9.9.9', true],
    ['::ffff:a00:0/104', '10.9.9.9', true],
    ['::ffff:10.0.0.0/104', '11.9.9.9', false],
    ['::1', '::1', true],
    ['::1', '127.0.0.1', false],
    ['fd00::/8', 'fd12:3456::1', true],
    ['fd00::/8', 'fe80::1', false],
    ['::/0', '2001:db8::7', true],
    ['10.0.0.0/8, fd00::/8', 'fd00::1', true],
    ['10.0.0.0/8', 'garbage', false],
    ['fd00::/8', 'fd00::1%eth0', false],
    ['fd00::/8', '', false],
  ] as const)('TRUST_PROXY=%p lists %p: %p', (raw, ip, listed) => {
    expect(trust(raw).proxies!.has(ip)).toBe(listed)
  })
})

describe('trustsPeer', () => {
  test.each([
    ['false', '127.0.0.1', false],
    ['true', '198.51.100.9', true],
    ['127.0.0.1', '127.0.0.1', true],
    ['127.0.0.1', '198.51.100.9', false],
    ['10.0.0.0/8', '', false],
  ] as const)('TRUST_PROXY=%p, peer %p → %p', (raw, peer, trusted) => {
    expect(trustsPeer(peer, parseTrustProxy(raw) as TrustProxy)).toBe(trusted)
  })
})

describe('the request readers', () => {
  const server = (address: string | undefined) => ({ requestIP: () => (address === undefined ? null : { address }) })
  const request = (headers: Record<string, string>, url = 'http://gateway/v1/models') => new Request(url, { headers })

  test.each([
    ['false', '::ffff:127.0.0.1', { 'x-forwarded-for': '10.1.2.3' }, '127.0.0.1'],
    ['true', '127.0.0.1', { 'x-forwarded-for': '10.1.2.3, 203.0.113.7' }, '203.0.113.7'],
    ['true', '127.0.0.1', { 'x-real-ip': '10.1.2.3', forwarded: 'for=10.1.2.3' }, '127.0.0.1'],
    ['127.0.0.1', '198.51.100.9', { 'x-forwarded-for': '10.1.2.3' }, '198.51.100.9'],
    ['127.0.0.1', '::ffff:198.51.100.9', { 'x-forwarded-for': '10.1.2.3' }, '198.51.100.9'],
    ['127.0.0.1', '::ffff:127.0.0.1', { 'x-forwarded-for': '::ffff:203.0.113.7' }, '203.0.113.7'],
  ] as const)('clientIpOf: TRUST_PROXY=%p, peer %p, %p → %p', (raw, peer, headers, client) => {
    expect(clientIpOf(request(headers), server(peer), parseTrustProxy(raw) as TrustProxy)).toBe(client)
  })

  test('clientIpOf without a server (an in-process request): an empty address, headers unread', () => {
    expect(clientIpOf(request({ 'x-forwarded-for': '10.1.2.3' }), null, trust('10.0.0.0/8'))).toBe('')
  })

  test.each([
    ['false', '127.0.0.1', { 'x-forwarded-proto': 'https' }, false],
    ['true', '127.0.0.1', { 'x-forwarded-proto': 'https' }, true],
    ['true', '127.0.0.1', { 'x-forwarded-proto': 'HTTPS' }, true],
    ['true', '127.0.0.1', { 'x-forwarded-proto': 'https, http' }, true],
    ['true', '127.0.0.1', { 'x-forwarded-proto': 'http' }, false],
    ['true', '127.0.0.1', { 'x-forwarded-proto': 'httpsx' }, false],
    ['true', '127.0.0.1', {}, false],
    ['127.0.0.1', '127.0.0.1', { 'x-forwarded-proto': 'https' }, true],
    ['127.0.0.1', '198.51.100.9', { 'x-forwarded-proto': 'https' }, false], // not from a listed proxy
  ] as const)('isHttpsRequest: TRUST_PROXY=%p, peer %p, %p → %p', (raw, peer, headers, https) => {
    expect(isHttpsRequest(request(headers), server(peer), parseTrustProxy(raw) as TrustProxy)).toBe(https)
  })

  test('isHttpsRequest: an https URL is HTTPS whatever the setting', () => {
    expect(isHttpsRequest(request({}, 'https://gateway/'), server('198.51.100.9'), false)).toBe(true)
  })
})
