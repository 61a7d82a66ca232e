import { afterAll, beforeAll, beforeEach, expect, test } from 'bun:test'
import { createOutbound } from '../../../src/outbound/fetch'
import { TokenExchangeError, createTokenSource, mask } from '../../../src/providers/signing/google-access-token'
import { ServiceAccountError, parseServiceAccount } from '../../../src/providers/signing/google-service-account'
import { type FakeGoogleToken, type TestServiceAccount, createTestServiceAccount, startFakeGoogleToken } from '../../helpers/fake-upstreams/google-token'

/** one clock for the token source and the fake endpoint; tests move it */
let clock = Date.UTC(2026, 0, 1)
const now = () => clock
const MIN = 60_000

let google: FakeGoogleToken
let sa: TestServiceAccount
beforeAll(async () => {
  google = await startFakeGoogleToken({ now })
  sa = await google.createAccount({ projectId: 'tollgate-vertex' })
})
afterAll(() => google.stop())
beforeEach(() => {
  google.exchanges.length = 0
  google.setDelay(0)
  google.setExpiresIn(3599)
  clock = Date.UTC(2026, 0, 1)
})

const errorOf = (promise: Promise<unknown>) => promise.then(() => { throw new Error('resolved') }, (e: unknown) => e as Error)

test('one exchange serves 50 concurrent callers, and later callers from the cache', async () => {
  const tokens = createTokenSource({ now })
  google.setDelay(50) // every caller arrives while the exchange runs
  const got = await Promise.all(Array.from({ length: 50 }, () => tokens.accessTokenFor(sa.json, fetch)))
  expect(google.exchanges).toHaveLength(1)
  expect(new Set(got).size).toBe(1)
  expect(got[0]).toStartWith('ya29.')
  expect(google.tokenInfo(got[0]!)).toMatchObject({ clientEmail: sa.clientEmail, projectId: 'tollgate-vertex' })
  const ex = google.exchanges[0]!
  expect(ex.status).toBe(200)
  expect(ex.header).toEqual({ alg: 'RS256', typ: 'JWT', kid: sa.privateKeyId })
  expect(ex.claims).toMatchObject({ iss: sa.clientEmail, aud: google.tokenUri, scope: 'https://www.googleapis.com/auth/cloud-platform' })
  expect((ex.claims!.exp as number) - (ex.claims!.iat as number)).toBe(3600)
  clock += 30 * MIN
  expect(await tokens.accessTokenFor(parseServiceAccount(sa.json), fetch)).toBe(got[0]!)
  expect(google.exchanges).toHaveLength(1)
})

test('refreshed once within 5 minutes of expiry, by the injected clock', async () => {
  const tokens = createTokenSource({ now })
  const first = await tokens.accessTokenFor(sa.json, fetch)
  clock += 54 * MIN + 58_000 // 3599 s token: 5 min + 1 s left
  expect(await tokens.accessTokenFor(sa.json, fetch)).toBe(first)
  expect(google.exchanges).toHaveLength(1)
  clock += 2_000 // 4 min 59 s left
  const [a, b] = await Promise.all([tokens.accessTokenFor(sa.json, fetch), tokens.accessTokenFor(sa.json, fetch)])
  expect(a).not.toBe(first)
  expect(b).toBe(a)
  expect(google.exchanges).toHaveLength(2)
  expect(google.exchanges[1]!.claims!.iat).toBe(Math.floor(clock / 1000))
})

test('a short-lived token (expires_in 600) is refreshed after 5 minutes', async () => {
  google.setExpiresIn(600)
  const tokens = createTokenSource({ now })
  const first = await tokens.accessTokenFor(sa.json, fetch)
  clock += 4 * MIN
  expect(await tokens.accessTokenFor(sa.json, fetch)).toBe(first)
  clock += 61_000
  expect(await tokens.accessTokenFor(sa.json, fetch)).not.toBe(first)
  expect(google.exchanges).toHaveLength(2)
})

test('a failed refresh keeps serving the old token while it has a minute left; after that the error', async () => {
  const tokens = createTokenSource({ now, failureCooldownMs: 5_000 })
  const first = await tokens.accessTokenFor(sa.json, fetch)
  clock += 56 * MIN
  google.failNext(10)
  expect(await tokens.accessTokenFor(sa.json, fetch)).toBe(first)
  expect(google.exchanges.map((e) => e.status)).toEqual([200, 503])
  // within the cooldown: no new exchange
  expect(await tokens.accessTokenFor(sa.json, fetch)).toBe(first)
  expect(google.exchanges).toHaveLength(2)
  clock += 3 * MIN + 30_000 // 29 s left on the old token
  const error = await errorOf(tokens.accessTokenFor(sa.json, fetch))
  expect(error).toBeInstanceOf(TokenExchangeError)
  expect((error as TokenExchangeError).status).toBe(503)
  expect(error.message).toBe(`the token endpoint ${google.tokenUri} (for ${sa.clientEmail}) answered 503: backendError: The service is currently unavailable.`)
  expect(google.exchanges).toHaveLength(3)
})

test('a refused exchange is remembered for the cooldown, then tried again', async () => {
  const tokens = createTokenSource({ now, failureCooldownMs: 5_000 })
  google.failNext(1)
  const error = await errorOf(tokens.accessTokenFor(sa.json, fetch))
  expect(error).toBeInstanceOf(TokenExchangeError)
  expect(await errorOf(tokens.accessTokenFor(sa.json, fetch))).toBe(error)
  expect(google.exchanges).toHaveLength(1)
  clock += 5_001
  expect(await tokens.accessTokenFor(sa.json, fetch)).toStartWith('ya29.')
  expect(google.exchanges).toHaveLength(2)
})

test('the caller\'s outbound guard decides: a token endpoint it refuses is not posted to, and owes no cooldown once allowed', async () => {
  const tokens = createTokenSource({ now, failureCooldownMs: 5_000 })
  let allowPrivate = false
  const outbound = createOutbound({ allowPrivate: () => allowPrivate })
  const error = await errorOf(tokens.accessTokenFor(sa.json, outbound.fetch))
  expect(error).toBeInstanceOf(TokenExchangeError)
  expect(error.message).toBe(`refused the token endpoint ${google.tokenUri} (for ${sa.clientEmail}): upstream address refused: 127.0.0.1 is a loopback address: private and loopback addresses are off (ChannelPrivateNetworksAllowed)`)
  expect(google.exchanges).toHaveLength(0)
  allowPrivate = true // no cooldown: nothing was sent, the next call tries at once
  expect(await tokens.accessTokenFor(sa.json, outbound.fetch)).toStartWith('ya29.')
  expect(google.exchanges).toHaveLength(1)
})

test('Google\'s own refusals surface with its error code: a key Google does not know, a key that does not match the account', async () => {
  const tokens = createTokenSource({ now })
  const stranger = await createTestServiceAccount({ tokenUri: google.tokenUri })
  const unknown = await errorOf(tokens.accessTokenFor(stranger.json, fetch))
  expect(unknown.message).toEndWith('answered 400: invalid_grant: Invalid grant: account not found')
  expect((unknown as TokenExchangeError).code).toBe('invalid_grant')
  // the registered account's email and key id with another key (a rotated key file pasted half-way)
  const forged = JSON.stringify({ ...stranger.fields, client_email: sa.clientEmail, private_key_id: sa.privateKeyId })
  const bad = await errorOf(tokens.accessTokenFor(forged, fetch))
  expect(bad.message).toEndWith('answered 400: invalid_grant: Invalid JWT Signature.')
  for (const e of [unknown, bad]) {
    expect(e.message).not.toContain('PRIVATE KEY')
    expect(e.message).not.toContain('eyJ')
  }
})

test('an endpoint that echoes the assertion, a token and the key has them masked in the error', async () => {
  const tokens = createTokenSource({ now })
  let echoed = ''
  google.failNext(1, {
    status: 502, error: 'proxy',
    raw: (assertion) => (echoed = `<html>bad gateway for assertion=${assertion} token ya29.a0AfH6SMBx-secret_part key ${sa.fields.private_key}</html>`),
  })
  const error = await errorOf(tokens.accessTokenFor(sa.json, fetch))
  expect(echoed).toContain('eyJ') // the fake did echo the assertion
  expect(error.message).toStartWith(`the token endpoint ${google.tokenUri} (for ${sa.clientEmail}) answered 502: <html>bad gateway for assertion=***`)
  expect(error.message).toContain('token ya29.***')
  expect(error.message).toContain('key [private key]')
  expect(error.message).not.toContain('secret_part')
  expect(error.message).not.toContain(sa.fields.private_key!.split('\n')[1]!)
  expect(mask('{"access_token":"abc.def","x":1}')).toBe('{"access_token":"***","x":1}')
  expect(mask('x'.repeat(400))).toHaveLength(301)
})

test('a 200 without access_token, and an unreachable endpoint, are TokenExchangeErrors', async () => {
  const tokens = createTokenSource({ now })
  google.failNext(1, { status: 200, error: '', raw: '{"token_type":"Bearer"}' })
  const empty = await errorOf(tokens.accessTokenFor(sa.json, fetch))
  expect(empty.message).toEndWith('answered 200: no access_token in its answer')
  const probe = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response() })
  const closed = `http://127.0.0.1:${probe.port}/token`
  await probe.stop(true)
  const gone = await errorOf(tokens.accessTokenFor({ ...parseServiceAccount(sa.json), tokenUri: closed }, fetch))
  expect(gone).toBeInstanceOf(TokenExchangeError)
  expect((gone as TokenExchangeError).status).toBe(0)
  expect(gone.message).toStartWith(`could not reach the token endpoint ${closed} (for ${sa.clientEmail}): `)
})

test('a token endpoint that never answers times out', async () => {
  const tokens = createTokenSource({ now, timeoutMs: 100 })
  google.setDelay(2_000)
  const error = await errorOf(tokens.accessTokenFor(sa.json, fetch))
  expect(error.message).toEndWith('no answer in 100 ms')
})

test('a bad key is a ServiceAccountError before anything is sent', async () => {
  const tokens = createTokenSource({ now })
  const junk = Buffer.from('definitely not an RSA key').toString('base64')
  const broken = JSON.stringify({ ...sa.fields, private_key: `-----BEGIN PRIVATE KEY-----\n${junk}\n-----END PRIVATE KEY-----` })
  const error = await errorOf(tokens.accessTokenFor(broken, fetch))
  expect(error).toBeInstanceOf(ServiceAccountError)
  expect(error.message).toContain('is not an RSA private key in PKCS#8 form')
  expect(await errorOf(tokens.accessTokenFor('{"type":"service_account"}', fetch))).toBeInstanceOf(ServiceAccountError)
  expect(google.exchanges).toHaveLength(0)
})

test('invalidate forgets the token (Vertex answered 401), each account has its own', async () => {
  const tokens = createTokenSource({ now })
  const other = await google.createAccount({ projectId: 'second-project' })
  const a1 = await tokens.accessTokenFor(sa.json, fetch)
  const b1 = await tokens.accessTokenFor(other.json, fetch)
  expect(a1).not.toBe(b1)
  expect(google.tokenInfo(b1)!.projectId).toBe('second-project')
  tokens.invalidate(sa.json)
  const a2 = await tokens.accessTokenFor(sa.json, fetch)
  expect(a2).not.toBe(a1)
  expect(await tokens.accessTokenFor(other.json, fetch)).toBe(b1)
  expect(google.exchanges).toHaveLength(3)
})

test('past maxAccounts the oldest account is forgotten: its next call mints again', async () => {
  const tokens = createTokenSource({ now, maxAccounts: 2 })
  const [b, c] = [await google.createAccount(), await google.createAccount()]
  const first = await tokens.accessTokenFor(sa.json, fetch)
  await tokens.accessTokenFor(b.json, fetch)
  expect(await tokens.accessTokenFor(sa.json, fetch)).toBe(first)
  expect(google.exchanges).toHaveLength(2)
  await tokens.accessTokenFor(c.json, fetch) // sa's entry goes
  expect(await tokens.accessTokenFor(sa.json, fetch)).not.toBe(first)
  expect(google.exchanges).toHaveLength(4)
})
