import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import OpenAI from 'openai'
import '../helpers/fake-upstreams/moderations'
import { countTextTokens } from '../../src/relay/meter/tokenize'
import { account, logsOf, settled, userRow } from '../metering/env'
import { OP_KEY, startOperationsEnv, type OperationsEnv } from './env'

let o: OperationsEnv
beforeAll(async () => {
  o = await startOperationsEnv()
  await o.channel(1, 'omni-moderation-latest,text-moderation-latest')
  await o.channel(8, 'omni-moderation-priced')
  await o.env.app.deps.options.set('ModelRatio', { 'omni-moderation-priced': 100 })
})
afterAll(() => o.stop())

const post = (key: string, body: unknown) =>
  o.env.app.fetch('/v1/moderations', { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) })

describe('POST /v1/moderations', () => {
  test('the OpenAI SDK without a model gets omni-moderation-latest; the answer comes back as OpenAI sent it', async () => {
    const res = await o.openai.moderations.create({ input: 'I will kill the process' })
    expect(res.results[0]!.flagged).toBe(true)
    expect(res.results[0]!.categories.violence).toBe(true)
    expect(res.model).toBe('omni-moderation-2024-09-26')
    const sent = o.up.requests.at(-1)!
    expect(sent.path).toBe('/v1/moderations')
    expect(sent.headers.authorization).toBe(`Bearer ${OP_KEY}`)
    expect(sent.json).toEqual({ input: 'I will kill the process', model: 'omni-moderation-latest' })
  })

  test('an array of strings is one result each; a multimodal array goes on as sent', async () => {
    const many = await o.openai.moderations.create({ model: 'text-moderation-latest', input: ['hello', 'kill it'] })
    expect(many.results.map((r) => r.flagged)).toEqual([false, true])
    const parts = [
      { type: 'text' as const, text: 'a friendly picture' },
      { type: 'image_url' as const, image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
    ]
    const mixed = await o.openai.moderations.create({ model: 'omni-moderation-latest', input: parts })
    expect(mixed.results).toHaveLength(1)
    expect(mixed.results[0]!.category_applied_input_types.violence).toEqual(['text', 'image'])
    expect(o.up.requests.at(-1)!.json.input).toEqual(parts)
  })

  test('the shipped moderation models are free; the log row counts the text tokens', async () => {
    const { user, key } = await account(o.env, 1000)
    const count = o.env.outcomes.length
    expect((await post(key, { input: ['one two three', 'four'] })).status).toBe(200)
    await settled(o.env, count + 1)
    const [row] = await logsOf(o.env, user.id)
    expect(row).toMatchObject({ modelName: 'omni-moderation-latest', promptTokens: countTextTokens('one two three') + countTextTokens('four'), quota: 0, type: 2 })
    expect(JSON.parse(row!.other).estimated).toBeUndefined()
    expect((await userRow(o.env, user.id)).quota).toBe(1000)
  })

  test('a priced moderation model (here on a custom channel) is billed per text token; images add none', async () => {
    const { user, key } = await account(o.env, 1_000_000)
    const count = o.env.outcomes.length
    const input = [{ type: 'text', text: 'is this fine' }, { type: 'image_url', image_url: { url: 'https://example.com/a.png' } }]
    expect((await post(key, { model: 'omni-moderation-priced', input })).status).toBe(200)
    await settled(o.env, count + 1)
    const tokens = countTextTokens('is this fine')
    const [row] = await logsOf(o.env, user.id)
    expect(row).toMatchObject({ modelName: 'omni-moderation-priced', promptTokens: tokens, quota: tokens * 100 })
    expect((await userRow(o.env, user.id)).quota).toBe(1_000_000 - tokens * 100)
  })

  test('bad input is a 400 naming the field, nothing sent', async () => {
    const before = o.up.requests.length
    for (const [body, param] of [
      [{}, 'input'],
      [{ input: [] }, 'input'],
      [{ input: ['a', 1] }, 'input[1]'],
      [{ input: [{ type: 'audio', data: 'x' }] }, 'input[0].type'],
      [{ input: [{ type: 'text' }] }, 'input[0].text'],
      [{ input: [{ type: 'image_url', image_url: {} }] }, 'input[0].image_url.url'],
      [{ input: 'a', model: 7 }, 'model'],
    ] as const) {
      const res = await post(o.env.key, body)
      expect(res.status).toBe(400)
      expect(((await res.json()) as any).error.param).toBe(param)
    }
    expect(o.up.requests.length).toBe(before)
  })

  test('a failing channel fails over; an upstream 4xx comes back with the key masked', async () => {
    await o.channel(1, 'omni-moderation-failover', { priority: 5 })
    await o.channel(8, 'omni-moderation-failover', { priority: 0 })
    await o.env.app.deps.options.set('ModelRatio', { 'omni-moderation-priced': 100, 'omni-moderation-failover': 0 })
    o.up.failNext('/v1/moderations', 500, { error: { message: 'internal error' } })
    const before = o.up.requests.length
    const ok = await o.openai.moderations.create({ model: 'omni-moderation-failover', input: 'hi' })
    expect(ok.results).toHaveLength(1)
    expect(o.up.requests.length).toBe(before + 2)
    o.up.failNext('/v1/moderations', 400, { error: { message: `input rejected (${OP_KEY})` } })
    const error = await o.openai.moderations.create({ model: 'omni-moderation-failover', input: 'hi' }).catch((e) => e)
    expect(error).toBeInstanceOf(OpenAI.BadRequestError)
    expect(error.message).toContain('input rejected')
    expect(error.message).not.toContain(OP_KEY)
  })
})
