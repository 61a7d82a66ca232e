import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import OpenAI from 'openai'
import { fakeImage } from '../helpers/fake-upstreams/images'
import { startFakeGoogleToken, type FakeGoogleToken } from '../helpers/fake-upstreams/google-token'
import { startFakeVertex, type FakeVertex } from '../helpers/fake-upstreams/vertex'
import type { RelayEnv } from '../helpers/relay-env'
import { account, logsOf, settled, startMeteredEnv, userRow } from '../metering/env'

/**
 * Imagen through a Vertex AI channel (type 41): `/v1/images/generations` to `…/publishers/google/models/{model}:predict`
 * on the region's host, with an access token minted from the channel's service account, as chat on Vertex does.
 */

const quota = (usd: number) => Math.round(usd * 500_000)
const IMAGEN = 'imagen-4.0-generate-001'
let env: RelayEnv
let google: FakeGoogleToken
let vertex: FakeVertex
let channelId: number
beforeAll(async () => {
  env = await startMeteredEnv()
  google = await startFakeGoogleToken()
  vertex = await startFakeVertex({ tokens: google, locations: ['us-central1', 'europe-west4'] })
  const key = await google.createAccount({ projectId: 'imagen-proj' })
  const [channel] = await env.app.deps.routing.channels.create([
    { name: 'vertex', type: 41, baseUrl: vertex.url, keyText: key.json, other: JSON.stringify({ default: 'us-central1', 'imagen-3.0-generate-002': 'europe-west4' }), group: 'default', models: `${IMAGEN},imagen-3.0-generate-002` },
  ])
  channelId = channel!.id
  await env.app.deps.options.set('ModelPrice', { [IMAGEN]: 0.04, 'imagen-3.0-generate-002': 0.03 })
})
afterAll(async () => {
  await env.stop()
  await Promise.all([vertex.stop(), google.stop()])
})

async function payer(balance = 10_000_000) {
  const { user, key } = await account(env, balance)
  return { user, key, client: new OpenAI({ apiKey: key, baseURL: `${env.app.url}/v1`, maxRetries: 0 }) }
}
async function rows(userId: number) {
  await settled(env, env.outcomes.length)
  return logsOf(env, userId)
}

describe('Imagen on Vertex AI', () => {
  test("the SDK gets b64_json; :predict on the channel's project and region with a minted token; billed per image", async () => {
    const { user, client } = await payer()
    const res = await client.images.generate({ model: IMAGEN, prompt: 'a lighthouse', n: 2, size: '1792x1024' })
    expect(res.data!.map((d) => d.b64_json)).toEqual([fakeImage('a lighthouse', 0), fakeImage('a lighthouse', 1)])
    const sent = vertex.requests.at(-1)!
    expect(sent.path).toBe(`/v1/projects/imagen-proj/locations/us-central1/publishers/google/models/${IMAGEN}:predict`)
    expect(sent.token?.projectId).toBe('imagen-proj')
    expect(sent.json).toEqual({ instances: [{ prompt: 'a lighthouse' }], parameters: { sampleCount: 2, aspectRatio: '16:9' } })
    const [row] = await rows(user.id)
    expect(row).toMatchObject({ modelName: IMAGEN, channelId, promptTokens: 2, quota: 2 * quota(0.04) })
    expect((await userRow(env, user.id)).quota).toBe(10_000_000 - 2 * quota(0.04))
  })

  test("the region map in `other` picks the model's region; a filtered sample is neither returned nor billed", async () => {
    const { user, client } = await payer()
    const res = await client.images.generate({ model: 'imagen-3.0-generate-002', prompt: 'a crowd [filtered]', n: 3 })
    expect(res.data).toHaveLength(2)
    expect(vertex.requests.at(-1)!.location).toBe('europe-west4')
    const [row] = await rows(user.id)
    expect(row).toMatchObject({ promptTokens: 2, quota: 2 * quota(0.03) })
  })

  test('a token Vertex refuses is dropped and minted anew for the next call; the key is not blamed', async () => {
    const { client } = await payer()
    await client.images.generate({ model: IMAGEN, prompt: 'first' })
    const token = /^Bearer (\S+)$/.exec(vertex.requests.at(-1)!.headers.authorization!)![1]!
    google.revoke(token)
    const refused = await client.images.generate({ model: IMAGEN, prompt: 'second' }).catch((e) => e)
    expect(refused).toBeInstanceOf(OpenAI.APIError)
    const minted = google.exchanges.length
    const res = await client.images.generate({ model: IMAGEN, prompt: 'third' })
    expect(res.data![0]!.b64_json).toBe(fakeImage('third', 0))
    expect(google.exchanges.length).toBe(minted + 1)
    expect(vertex.requests.at(-1)!.headers.authorization).not.toBe(`Bearer ${token}`)
  })

  test('the token endpoint failing is a failed attempt: an error in OpenAI shape, nothing sent to Vertex, nothing billed', async () => {
    const { user, key } = await payer()
    google.failNext(5)
    // a channel of a fresh account: no cached token to reuse
    const other = await google.createAccount({ projectId: 'imagen-proj' })
    await env.app.deps.routing.channels.create([{ name: 'vertex-2', type: 41, baseUrl: vertex.url, keyText: other.json, other: 'us-central1', group: 'default', models: 'imagen-4.0-fast-generate-001' }])
    await env.app.deps.options.set('ModelPrice', { 'imagen-4.0-fast-generate-001': 0.02 })
    const before = vertex.requests.length
    const res = await env.app.fetch('/v1/images/generations', { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'imagen-4.0-fast-generate-001', prompt: 'x' }) })
    expect(res.status).toBe(503)
    expect(((await res.json()) as any).error.message).toContain("the channel's credentials could not be used")
    expect(vertex.requests.length).toBe(before)
    expect((await userRow(env, user.id)).quota).toBe(10_000_000)
  })
})
