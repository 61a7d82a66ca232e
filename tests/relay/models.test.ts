import Anthropic from '@anthropic-ai/sdk'
import OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { addUser } from '../helpers/accounts'
import { startRelayEnv, type RelayEnv } from '../helpers/relay-env'

/** GET /v1/models per token: the token's group's enabled channels, narrowed by its model limits. */
let env: RelayEnv

beforeAll(async () => {
  env = await startRelayEnv()
  await env.addChannel({ type: 1, models: 'gpt-4o,gpt-4o-mini', group: 'default' })
  await env.addChannel({ type: 14, models: 'claude-sonnet-4-5,gpt-4o', group: 'default,vip' })
  await env.addChannel({ type: 1, models: 'off-model', group: 'default', status: 2 })
  await env.addChannel({ type: 1, models: 'auto-off-model', group: 'default', status: 3 })
  await env.addChannel({ type: 1, models: 'vip-only,org/slashed-model', group: 'vip' })
})
afterAll(() => env.stop())

const openaiFor = (key: string) => new OpenAI({ apiKey: key, baseURL: `${env.app.url}/v1`, maxRetries: 0 })
const anthropicFor = (key: string) => new Anthropic({ apiKey: key, baseURL: env.app.url, maxRetries: 0 })

async function list(key: string, headers: Record<string, string> = { authorization: `Bearer ${key}` }) {
  const res = await env.app.fetch('/v1/models', { headers })
  return { status: res.status, body: (await res.json()) as any }
}

describe('GET /v1/models', () => {
  test('exactly the group\'s enabled channels\' models, each once, in a shape both SDKs read', async () => {
    const { status, body } = await list(env.key)
    expect(status).toBe(200)
    expect(body.object).toBe('list')
    expect(body.data.map((m: any) => m.id)).toEqual(['claude-sonnet-4-5', 'gpt-4o', 'gpt-4o-mini'])
    for (const m of body.data) {
      expect(typeof m.created).toBe('number')
      expect(typeof m.owned_by).toBe('string')
      expect(new Date(m.created_at).getTime()).toBe(m.created * 1000)
      expect(m).toMatchObject({ object: 'model', type: 'model', display_name: m.id })
    }
    expect(body).toMatchObject({ has_more: false, first_id: 'claude-sonnet-4-5', last_id: 'gpt-4o-mini' })
  })

  test('another group sees its own channels', async () => {
    const vip = await addUser(env.app, { username: 'vipuser', group: 'vip' })
    const { body } = await list(await env.newKey({}, vip))
    expect(body.data.map((m: any) => m.id)).toEqual(['claude-sonnet-4-5', 'gpt-4o', 'org/slashed-model', 'vip-only'])
  })

  test('model limits narrow the list (a listed model the group lacks is not invented)', async () => {
    const key = await env.newKey({ model_limits_enabled: true, model_limits: 'gpt-4o-mini,vip-only' })
    const { body } = await list(key)
    expect(body.data.map((m: any) => m.id)).toEqual(['gpt-4o-mini'])
  })

  test('no channel for the group → an empty list, not an error', async () => {
    const lonely = await addUser(env.app, { username: 'lonely', group: 'nobody-serves-this' })
    const { status, body } = await list(await env.newKey({}, lonely))
    expect(status).toBe(200)
    expect(body).toEqual({ object: 'list', data: [], has_more: false, first_id: null, last_id: null })
    const page = await openaiFor(await env.newKey({}, lonely)).models.list()
    expect(page.data).toEqual([])
  })

  test('the OpenAI SDK parses it', async () => {
    const page = await openaiFor(env.key).models.list()
    expect(page.data.map((m) => m.id)).toEqual(['claude-sonnet-4-5', 'gpt-4o', 'gpt-4o-mini'])
    expect(page.data[0]!.object).toBe('model')
  })

  test('the Anthropic SDK parses it (and x-api-key works here)', async () => {
    const ids: string[] = []
    for await (const model of anthropicFor(env.key).models.list()) {
      expect(model.type).toBe('model')
      expect(typeof model.display_name).toBe('string')
      ids.push(model.id)
    }
    expect(ids).toEqual(['claude-sonnet-4-5', 'gpt-4o', 'gpt-4o-mini'])
    const viaHeader = await list(env.key, { 'x-api-key': env.key, 'anthropic-version': '2023-06-01' })
    expect(viaHeader.status).toBe(200)
    expect(viaHeader.body.data).toHaveLength(3)
  })

  test('without a key: 401 in the caller\'s shape', async () => {
    const openaiShape = await list('', {})
    expect(openaiShape.status).toBe(401)
    expect(openaiShape.body.error.message).toContain('unauthorized')
    const anthropicShape = await list('', { 'anthropic-version': '2023-06-01' })
    expect(anthropicShape.status).toBe(401)
    expect(anthropicShape.body).toMatchObject({ type: 'error', error: { type: 'authentication_error' } })
  })
})

describe('GET /v1/models/:model', () => {
  test('a known model', async () => {
    const model = await openaiFor(env.key).models.retrieve('gpt-4o-mini')
    expect(model).toMatchObject({ id: 'gpt-4o-mini', object: 'model', owned_by: expect.any(String) })
    const viaAnthropic = await anthropicFor(env.key).models.retrieve('claude-sonnet-4-5')
    expect(viaAnthropic).toMatchObject({ id: 'claude-sonnet-4-5', type: 'model', display_name: 'claude-sonnet-4-5' })
  })

  test('a model id with a slash', async () => {
    const vip = await addUser(env.app, { username: 'vip2', group: 'vip' })
    const model = await openaiFor(await env.newKey({}, vip)).models.retrieve('org/slashed-model')
    expect(model.id).toBe('org/slashed-model')
  })

  test('an unknown model, a disabled channel\'s model, a model outside the token\'s limits → 404 naming it', async () => {
    const limited = await env.newKey({ model_limits_enabled: true, model_limits: 'gpt-4o' })
    for (const [key, id] of [[env.key, 'no-such-model'], [env.key, 'off-model'], [env.key, 'auto-off-model'], [limited, 'gpt-4o-mini']] as const) {
      const res = await env.app.fetch(`/v1/models/${id}`, { headers: { authorization: `Bearer ${key}` } })
      expect(res.status).toBe(404)
      const body = (await res.json()) as any
      expect(body.error.message).toContain('model not found')
      expect(body.error.message).toContain(id)
      expect(body.request_id).toBeTruthy()
    }
    const error = await anthropicFor(env.key).models.retrieve('no-such-model').catch((e) => e)
    expect(error).toBeInstanceOf(Anthropic.NotFoundError)
    expect(error.error).toMatchObject({ type: 'error', error: { type: 'not_found_error' } })
  })
})
