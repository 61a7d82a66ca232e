/**
 * PROVIDER_ENDPOINTS sends a vendor's host somewhere else (a mirror, or here the test's fakes on loopback). The
 * operator chose those targets in the environment, so they are dialled even with ChannelPrivateNetworksAllowed off;
 * an address an admin types (base_url) or a key carries (token_uri) is still held to the option.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { ConfigError, loadConfig } from '../../src/config'
import { endpointMap, parseProviderEndpoints } from '../../src/outbound/endpoints'
import { GOOGLE_TOKEN_URI } from '../../src/providers/signing/google-service-account'
import { startFakeGoogleToken, type FakeGoogleToken } from '../helpers/fake-upstreams/google-token'
import { startFakeVertex, type FakeVertex } from '../helpers/fake-upstreams/vertex'
import { startRelayEnv, type RelayEnv } from '../helpers/relay-env'
import { call } from '../helpers/test-app'
import { userHeaders } from '../modules/channels/helpers'

let env: RelayEnv
let google: FakeGoogleToken
let vertex: FakeVertex
let admin: Record<string, string>
beforeAll(async () => {
  // the fake token endpoint stands in for Google's own: the assertions it checks are addressed to Google's URL
  google = await startFakeGoogleToken({ tokenUri: GOOGLE_TOKEN_URI })
  vertex = await startFakeVertex({ tokens: google, locations: ['us-east5'] })
  env = await startRelayEnv({ PROVIDER_ENDPOINTS: JSON.stringify({ 'oauth2.googleapis.com': google.url, '*.googleapis.com': vertex.url }) })
  admin = await userHeaders(env.app)
  await env.app.deps.options.set('ChannelPrivateNetworksAllowed', false)
})
afterAll(async () => {
  await env.stop()
  await Promise.all([vertex.stop(), google.stop()])
})

describe('PROVIDER_ENDPOINTS', () => {
  test("a Vertex channel with Google's own addresses reaches the fakes the operator named, private networks off", async () => {
    const account = await google.createAccount({ projectId: 'proj-mirror' })
    expect(account.fields.token_uri).toBe('https://oauth2.googleapis.com/token')
    const saved = await call(env.app, 'POST', '/api/channel/', { type: 41, name: 'vertex', key: account.json, other: 'us-east5', models: 'gemini-2.5-pro' }, admin)
    expect(saved.status).toBe(200)
    const res = await env.app.fetch('/v1/chat/completions', {
      method: 'POST',
      headers: { authorization: `Bearer ${env.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gemini-2.5-pro', messages: [{ role: 'user', content: 'hi' }] }),
    })
    expect(res.status).toBe(200)
    expect(google.exchanges).toHaveLength(1)
    expect(vertex.requests.at(-1)).toMatchObject({ location: 'us-east5', vertexModel: 'gemini-2.5-pro', action: 'generateContent' })
  })

  test('an admin-typed loopback base_url is still refused with the option off', async () => {
    const res = await call(env.app, 'POST', '/api/channel/', { type: 1, name: 'direct', key: 'sk-x', base_url: vertex.url, models: 'm' }, admin)
    expect(res.status).toBe(400)
    expect(res.body.message).toContain('ChannelPrivateNetworksAllowed')
  })

  test('parsing: host or *.suffix → http(s) URL; anything else is a configuration error naming PROVIDER_ENDPOINTS', () => {
    const map = endpointMap(parseProviderEndpoints('{"api.openai.com": "http://127.0.0.1:4010/mirror/", "*.example.com": "https://proxy.test"}'))
    expect(map.rewrite(new URL('https://api.openai.com/v1/chat/completions?x=1'))).toMatchObject({ trusted: true, url: new URL('http://127.0.0.1:4010/mirror/v1/chat/completions?x=1') })
    expect(map.rewrite(new URL('https://eu.example.com/v1')).url.href).toBe('https://proxy.test/v1')
    expect(map.rewrite(new URL('https://example.com/v1')).trusted).toBe(false) // *.example.com is subdomains only
    expect(map.rewrite(new URL('https://api.anthropic.com/v1')).trusted).toBe(false)
    for (const bad of ['[1]', '{"api.openai.com": 5}', '{"api.openai.com": "ftp://x"}', '{"not a host": "http://x"}', '{"a.com": "http://u:p@x"}', 'nope']) {
      expect(() => loadConfig({ PROVIDER_ENDPOINTS: bad })).toThrow(ConfigError)
      expect(() => loadConfig({ PROVIDER_ENDPOINTS: bad })).toThrow('PROVIDER_ENDPOINTS')
    }
    expect(loadConfig({}).providerEndpoints.size).toBe(0)
  })

  test('a provider name stands for all its hosts; a host entry beside it wins for that host', () => {
    const map = endpointMap(parseProviderEndpoints('{"api.github.com": "http://127.0.0.1:5001", "github": "http://127.0.0.1:5000/gh", "Stripe": "http://127.0.0.1:5002"}'))
    expect(map.rewrite(new URL('https://github.com/login/oauth/authorize?client_id=x')).url.href).toBe('http://127.0.0.1:5000/gh/login/oauth/authorize?client_id=x')
    expect(map.rewrite(new URL('https://api.github.com/user')).url.href).toBe('http://127.0.0.1:5001/user')
    expect(map.rewrite(new URL('https://checkout.stripe.com/c/pay')).url.href).toBe('http://127.0.0.1:5002/c/pay')
    expect(map.rewrite(new URL('https://api.stripe.com/v1/checkout/sessions')).trusted).toBe(true)
    expect(map.rewrite(new URL('https://gitlab.com/x')).trusted).toBe(false)
  })
})
