/**
 * Keys stay where they were sent: the console shows an admin a channel's key masked, so an edit that changes where
 * the key goes (type, base_url, a region or account that picks the address) must carry the key again, replacing the
 * stored one; only root may move a stored key. Otherwise an admin points the channel at a server of their own, presses
 * "test", and reads the key there.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startRelayEnv, UPSTREAM_KEY, type RelayEnv } from '../helpers/relay-env'
import { call } from '../helpers/test-app'
import { fakeUpstream, userHeaders } from '../modules/channels/helpers'

let env: RelayEnv
let admin: Record<string, string>
let root: Record<string, string>
let listener: ReturnType<typeof fakeUpstream>
beforeAll(async () => {
  env = await startRelayEnv()
  admin = await userHeaders(env.app)
  root = await userHeaders(env.app, 100)
  listener = fakeUpstream(() => Response.json({ id: 'x', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: 'got it' }, finish_reason: 'stop' }] }))
})
afterAll(async () => {
  listener.stop()
  await env.stop()
})

const edit = (body: Record<string, unknown>, headers = admin) => call(env.app, 'PUT', '/api/channel/', body, headers)
const stored = async (id: number) => (await env.app.deps.repos.channels.findById(id))!

async function channel(input: Record<string, unknown> = {}): Promise<number> {
  const res = await call(env.app, 'POST', '/api/channel/', { type: 1, name: 'victim', key: UPSTREAM_KEY, base_url: env.upstream.url, models: 'gpt-4o', ...input }, root)
  expect(res.status).toBe(200)
  return res.body.data.id
}

describe('an admin moving a stored key', () => {
  test('base_url alone: 403 that says to enter the key; nothing changes and the new host never hears the key', async () => {
    const id = await channel()
    listener.seen.length = 0
    const res = await edit({ id, base_url: listener.url })
    expect(res.status).toBe(403)
    expect(res.body.success).toBe(false)
    expect(res.body.message).toContain("base_url changes where this channel's key is sent: enter the key again")
    expect((await stored(id)).baseUrl).toBe(env.upstream.url)
    const tested = await call(env.app, 'GET', `/api/channel/test/${id}`, undefined, admin)
    expect(tested.body.success).toBe(true) // still tests against the old host
    expect(listener.seen).toHaveLength(0)
  })

  test('base_url with the key: saved, and the key the admin typed is what goes there', async () => {
    const id = await channel()
    listener.seen.length = 0
    const res = await edit({ id, base_url: listener.url, key: 'sk-admin-typed-key' })
    expect(res.status).toBe(200)
    expect((await stored(id)).baseUrl).toBe(listener.url)
    await call(env.app, 'GET', `/api/channel/test/${id}`, undefined, admin)
    expect(listener.seen.map((r) => r.headers.get('authorization'))).toEqual(['Bearer sk-admin-typed-key'])
  })

  test('appending a key does not count: the stored keys would go along', async () => {
    const id = await channel()
    const res = await edit({ id, base_url: listener.url, key: 'sk-appended', key_mode: 'append' })
    expect(res.status).toBe(403)
    expect((await stored(id)).baseUrl).toBe(env.upstream.url)
  })

  test('type and an addressed other (a Cloudflare account; a Vertex region alike) also move the key; what does not move it needs no key', async () => {
    const id = await channel()
    expect((await edit({ id, type: 8 })).status).toBe(403) // another type: another auth, another default host
    expect((await edit({ id, name: 'renamed', models: 'gpt-4o,gpt-4o-mini', priority: 5 })).status).toBe(200)
    const cloudflare = await channel({ type: 39, base_url: '', other: 'account-a' })
    const moved = await edit({ id: cloudflare, other: 'account-b' })
    expect(moved.status).toBe(403)
    expect(moved.body.message).toContain('other changes where')
    const azure = await channel({ type: 3, other: '2024-10-21' })
    expect((await edit({ id: azure, other: '2025-01-01-preview' })).status).toBe(200) // the api-version is a query parameter
    expect((await edit({ id, base_url: env.upstream.url })).status).toBe(200) // the same base_url is no move
  })
})

describe('root', () => {
  test('may move a stored key', async () => {
    const id = await channel()
    const res = await edit({ id, base_url: listener.url }, root)
    expect(res.status).toBe(200)
    expect((await stored(id)).baseUrl).toBe(listener.url)
  })
})
