/**
 * SSRF: a channel may not point at link-local addresses or cloud metadata services, however the address is
 * written, on create, on update and at connect time (a host name can resolve there later); private and
 * loopback addresses are allowed until root turns `ChannelPrivateNetworksAllowed` off; upstream redirects are
 * never followed. Refused at connect time means no request at all: the key is never sent. Every outbound call
 * (token endpoints included) goes through the one guard in src/outbound, which connects to the address it checked.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { hostname } from 'node:os'
import { createOutbound, OutboundRefused } from '../../src/outbound/fetch'
import { createResolver } from '../../src/outbound/resolver'
import { startFakeGoogleToken } from '../helpers/fake-upstreams/google-token'
import { startFakeVertex } from '../helpers/fake-upstreams/vertex'
import { startRelayEnv, UPSTREAM_KEY, type RelayEnv } from '../helpers/relay-env'
import { call } from '../helpers/test-app'
import { fakeUpstream, userHeaders } from '../modules/channels/helpers'

let env: RelayEnv
let admin: Record<string, string>
let root: Record<string, string>
beforeAll(async () => {
  env = await startRelayEnv()
  admin = await userHeaders(env.app)
  root = await userHeaders(env.app, 100)
  await env.app.deps.options.set('RelayTimeoutSeconds', 2)
  await env.app.deps.options.set('ChannelFailureThreshold', 1000)
})
afterAll(() => env.stop())
beforeEach(async () => {
  env.upstream.reset()
  env.outcomes.length = 0
  await env.app.deps.options.set('ChannelPrivateNetworksAllowed', true)
})

const METADATA_URLS = [
  'http://169.254.169.254',
  'http://169.254.169.254/latest/meta-data',
  'http://2852039166', // 169.254.169.254 as one decimal number
  'http://0251.0376.0251.0376', // octal
  'http://0xa9fea9fe', // hex
  'http://0xA9.0xFE.0xA9.0xFE',
  'http://169.254.43518', // short form
  'http://169.254.169.254.', // trailing dot
  'http://[::ffff:169.254.169.254]', // IPv4-mapped IPv6
  'http://[::ffff:a9fe:a9fe]',
  'http://[::a9fe:a9fe]', // IPv4-compatible
  'http://[64:ff9b::169.254.169.254]', // NAT64
  'http://169.254.170.2', // ECS task metadata (link-local)
  'http://[fe80::1]', // IPv6 link-local
  'http://metadata.google.internal',
  'http://METADATA.Google.Internal.',
  'http://metadata',
  'http://100.100.100.200', // Alibaba
  'http://[fd00:ec2::254]', // AWS IPv6
]
const PRIVATE_URLS = ['http://127.0.0.1:11434', 'http://10.0.0.5:8000', 'http://192.168.1.20', 'http://localhost:8000', 'http://[::1]:8000', 'http://0x7f.1']

/** Whether this machine's own name resolves to a private (loopback) address: the name-resolution tests need it. */
const machineName = hostname()
const machineNameIsPrivate = (await createOutbound({ allowPrivate: () => false }).refusalFor(`http://${machineName}`)) !== undefined

const create = (base_url: string, headers = admin) =>
  call(env.app, 'POST', '/api/channel/', { type: 8, name: 'ssrf', key: 'sk-secret-channel-key', base_url, models: 'm' }, headers)

describe('create and update', () => {
  for (const url of METADATA_URLS) {
    test(`${url} is refused with a 400 naming base_url, on create and on update`, async () => {
      const res = await create(url)
      expect(res.status).toBe(400)
      expect(res.body.message).toContain('base_url')
      expect(res.body.message).toMatch(/link-local|metadata/)
      const ok = await create(env.upstream.url)
      expect(ok.status).toBe(200)
      const edit = await call(env.app, 'PUT', '/api/channel/', { id: ok.body.data.id, base_url: url }, admin)
      expect(edit.status).toBe(400)
      expect(edit.body.message).toContain('base_url')
      expect((await env.app.deps.repos.channels.findById(ok.body.data.id))!.baseUrl).toBe(env.upstream.url)
    })
  }

  test('private and loopback addresses are allowed by default, refused once root turns ChannelPrivateNetworksAllowed off', async () => {
    for (const url of PRIVATE_URLS) expect((await create(url)).status).toBe(200)
    const off = await call(env.app, 'PUT', '/api/option/', { key: 'ChannelPrivateNetworksAllowed', value: false }, root)
    expect(off.status).toBe(200)
    for (const url of PRIVATE_URLS) {
      const res = await create(url)
      expect(res.status).toBe(400)
      expect(res.body.message).toContain('base_url')
      expect(res.body.message).toContain('ChannelPrivateNetworksAllowed')
    }
    expect((await create('https://api.openai.com')).status).toBe(200) // public names stay fine (no DNS needed to refuse nothing)
  })

  test.skipIf(!machineNameIsPrivate)('a host name is resolved on save: one that resolves to a private address is refused with the option off', async () => {
    const name = machineName
    await env.app.deps.options.set('ChannelPrivateNetworksAllowed', false)
    const res = await create(`http://${name}:8000`)
    expect(res.status).toBe(400)
    expect(res.body.message).toContain(`${name} resolves to`)
  })
})

/** A channel row as an older version (or a host that resolves elsewhere since) left it: not checked on save. */
async function storedChannel(baseUrl: string, type = 1): Promise<number> {
  const [channel] = await env.app.deps.routing.channels.create([{ name: 'stored', type, baseUrl, keyText: UPSTREAM_KEY, models: 'gpt-4o', group: 'default' }])
  return channel!.id
}

describe('connect time', () => {
  test('a stored channel at the metadata address: a failed attempt that says why, nothing sent', async () => {
    const id = await storedChannel('http://169.254.169.254')
    const started = performance.now()
    const res = await env.app.fetch('/v1/chat/completions', {
      method: 'POST',
      headers: { authorization: `Bearer ${env.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }),
    })
    expect(res.status).toBe(503)
    expect((await res.json()).error.message).toContain('upstream address refused: 169.254.169.254 is the cloud metadata address')
    expect(performance.now() - started).toBeLessThan(1000) // refused before any connection, not timed out
    expect(env.outcomes[0]!.attempts[0]).toMatchObject({ channelId: id, status: 0 })
    await env.app.deps.routing.channels.remove([id])
  })

  test('with private networks off, a stored loopback channel is refused before its key is sent: relay, channel test and fetch_models', async () => {
    const id = await storedChannel(env.upstream.url)
    await env.app.deps.options.set('ChannelPrivateNetworksAllowed', false)
    const res = await env.app.fetch('/v1/chat/completions', {
      method: 'POST',
      headers: { authorization: `Bearer ${env.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }),
    })
    expect(res.status).toBe(503)
    expect((await res.json()).error.message).toContain('127.0.0.1 is a loopback address')
    const tested = await call(env.app, 'GET', `/api/channel/test/${id}`, undefined, admin)
    expect(tested.body.success).toBe(false)
    expect(tested.body.message).toContain('upstream address refused')
    const models = await call(env.app, 'GET', `/api/channel/fetch_models/${id}`, undefined, admin)
    expect(models.body.success).toBe(false)
    expect(models.body.message).toContain('upstream address refused')
    expect(env.upstream.requests).toHaveLength(0) // the key never left
    await env.app.deps.options.set('ChannelPrivateNetworksAllowed', true)
    expect((await call(env.app, 'GET', `/api/channel/test/${id}`, undefined, admin)).body.success).toBe(true)
    await env.app.deps.routing.channels.remove([id])
  })

  test.skipIf(!machineNameIsPrivate)('a host name is checked by what it resolves to, at each connection (this machine\'s name → loopback)', async () => {
    const name = machineName
    const id = await storedChannel(env.upstream.url.replace('127.0.0.1', name))
    const chat = () => env.app.fetch('/v1/chat/completions', {
      method: 'POST',
      headers: { authorization: `Bearer ${env.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }),
    })
    expect((await chat()).status).toBe(200)
    await env.app.deps.options.set('ChannelPrivateNetworksAllowed', false)
    const refused = await chat()
    expect(refused.status).toBe(503)
    expect((await refused.json()).error.message).toContain(`${name} resolves to 127.0.0.1`)
    expect(env.upstream.requests).toHaveLength(1)
    await env.app.deps.routing.channels.remove([id])
  })
})

describe('redirects are not followed', () => {
  test('an upstream that redirects elsewhere: a failed attempt naming the target; the target never sees the key (relay, test, fetch_models)', async () => {
    const target = fakeUpstream(() => Response.json({ stolen: true }))
    const redirector = fakeUpstream((_req, url) => new Response(null, { status: 307, headers: { location: `${target.url}${url.pathname}` } }))
    const id = await storedChannel(redirector.url)
    const res = await env.app.fetch('/v1/chat/completions', {
      method: 'POST',
      headers: { authorization: `Bearer ${env.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }),
    })
    expect(res.status).toBe(503)
    expect((await res.json()).error.message).toContain(`redirected to ${target.url}/v1/chat/completions`)
    const tested = await call(env.app, 'GET', `/api/channel/test/${id}`, undefined, admin)
    expect(tested.body.success).toBe(false)
    expect(tested.body.message).toContain('redirected to')
    const models = await call(env.app, 'GET', `/api/channel/fetch_models/${id}`, undefined, admin)
    expect(models.body.success).toBe(false)
    expect(models.body.message).toContain('redirected to')
    expect(redirector.seen.length).toBeGreaterThanOrEqual(3)
    expect(target.seen).toHaveLength(0)
    await env.app.deps.routing.channels.remove([id])
    target.stop()
    redirector.stop()
  })
})

describe('token endpoints', () => {
  const chat = (model: string) =>
    env.app.fetch('/v1/chat/completions', {
      method: 'POST',
      headers: { authorization: `Bearer ${env.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
    })

  test("a Vertex service account whose token_uri is on loopback, private networks off: refused on save, at the channel test and in the relay; the token endpoint hears nothing", async () => {
    const google = await startFakeGoogleToken() // on 127.0.0.1: the account's token_uri points there
    const account = await google.createAccount({ projectId: 'proj-ssrf' })
    await env.app.deps.options.set('ChannelPrivateNetworksAllowed', false)
    // the channel's own address is Google's (no base_url): only the key's token_uri is private
    const saved = await call(env.app, 'POST', '/api/channel/', { type: 41, name: 'vertex-ssrf', key: account.json, models: 'gemini-2.5-flash' }, admin)
    expect(saved.status).toBe(400)
    expect(saved.body.message).toContain('key refused: 127.0.0.1 is a loopback address')
    expect(saved.body.message).not.toContain('PRIVATE KEY')
    const [stored] = await env.app.deps.routing.channels.create([{ name: 'vertex-ssrf', type: 41, baseUrl: '', keyText: account.json, models: 'gemini-2.5-flash', group: 'default' }])
    const tested = await call(env.app, 'GET', `/api/channel/test/${stored!.id}`, undefined, admin)
    expect(tested.body.success).toBe(false)
    expect(tested.body.message).toContain(`refused the token endpoint ${google.tokenUri}`)
    expect(tested.body.message).toContain('127.0.0.1 is a loopback address')
    const relayed = await chat('gemini-2.5-flash')
    expect(relayed.status).toBe(503)
    expect((await relayed.json()).error.message).toContain('127.0.0.1 is a loopback address')
    const models = await call(env.app, 'GET', `/api/channel/fetch_models/${stored!.id}`, undefined, admin)
    expect(models.body.success).toBe(false)
    expect(google.exchanges).toHaveLength(0) // nothing was posted to the loopback token endpoint
    await env.app.deps.routing.channels.remove([stored!.id])
    await google.stop()
  })

  test('with private networks on, the same account mints its token and the channel works (the refusal was the policy)', async () => {
    const google = await startFakeGoogleToken()
    const vertex = await startFakeVertex({ tokens: google })
    const account = await google.createAccount({ projectId: 'proj-ok' })
    const saved = await call(env.app, 'POST', '/api/channel/', { type: 41, name: 'vertex-ok', key: account.json, base_url: vertex.url, models: 'gemini-2.5-flash' }, admin)
    expect(saved.status).toBe(200)
    const tested = await call(env.app, 'GET', `/api/channel/test/${saved.body.data.id}`, undefined, admin)
    expect(tested.body).toMatchObject({ success: true })
    expect(google.exchanges).toHaveLength(1)
    await env.app.deps.routing.channels.remove([saved.body.data.id])
    await Promise.all([vertex.stop(), google.stop()])
  })

  test('a token endpoint that redirects is not followed: the target never sees the assertion', async () => {
    const google = await startFakeGoogleToken()
    const redirector = fakeUpstream(() => new Response(null, { status: 302, headers: { location: google.tokenUri } }))
    const account = await google.createAccount({ projectId: 'proj-redirect' })
    const key = JSON.stringify({ ...account.fields, token_uri: `${redirector.url}/token` })
    const [stored] = await env.app.deps.routing.channels.create([{ name: 'vertex-redirect', type: 41, baseUrl: '', keyText: key, models: 'gemini-2.5-flash', group: 'default' }])
    const tested = await call(env.app, 'GET', `/api/channel/test/${stored!.id}`, undefined, admin)
    expect(tested.body.success).toBe(false)
    expect(tested.body.message).toContain(`redirected to ${google.tokenUri}`)
    expect(redirector.seen).toHaveLength(1)
    expect(google.exchanges).toHaveLength(0)
    await env.app.deps.routing.channels.remove([stored!.id])
    redirector.stop()
    await google.stop()
  })
})

describe('the resolver', () => {
  test('host names: the worst of their addresses decides; answers are kept 30 s, then looked up again', async () => {
    let answer = ['93.184.216.34']
    let lookups = 0
    let clock = 0
    const resolver = createResolver(async () => (lookups++, answer), () => clock)
    const outbound = createOutbound({ allowPrivate: () => true, resolver })
    await resolver.resolve('rebind.example') // first time: looked up
    expect(resolver.resolve('rebind.example')).not.toBeInstanceOf(Promise) // then synchronous, from memory
    answer = ['93.184.216.34', '169.254.169.254'] // the name now points (also) at the metadata service
    clock += 29_000
    expect(await outbound.refusalFor('https://rebind.example/v1')).toBeUndefined()
    clock += 2_000
    expect(await outbound.refusalFor('https://rebind.example/v1')).toContain('rebind.example resolves to 169.254.169.254, the cloud metadata address')
    await expect(outbound.fetch('https://rebind.example/v1')).rejects.toBeInstanceOf(OutboundRefused)
    expect(lookups).toBe(2)
  })

  test('a name that does not resolve is refused at connect time (retried after 2 s), accepted on save', async () => {
    let clock = 0
    let fail = true
    const resolver = createResolver(async () => {
      if (fail) throw new Error('ENOTFOUND')
      return ['8.8.8.8']
    }, () => clock)
    const outbound = createOutbound({ allowPrivate: () => true, resolver })
    await expect(outbound.fetch('https://nowhere.example/v1')).rejects.toThrow('cannot resolve nowhere.example')
    expect(await outbound.refusalFor('https://nowhere.example')).toBeUndefined()
    fail = false
    clock += 2_500
    expect(await resolver.resolve('nowhere.example')).toMatchObject({ connectTo: '8.8.8.8', verdict: { class: 'public' } })
  })

  test('its memory is bounded: past 1024 names the oldest answer is forgotten', async () => {
    const asked = new Map<string, number>()
    const resolver = createResolver(async (host) => (asked.set(host, (asked.get(host) ?? 0) + 1), ['8.8.8.8']))
    for (let i = 0; i <= 1024; i++) await resolver.resolve(`h${i}.example`)
    await resolver.resolve('h1024.example')
    await resolver.resolve('h0.example')
    expect(asked.get('h1024.example')).toBe(1) // still known
    expect(asked.get('h0.example')).toBe(2) // forgotten, looked up again
  })
})
