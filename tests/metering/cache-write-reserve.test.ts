import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import type { RelayEnv } from '../helpers/relay-env'
import { account, chat, logsOf, messages, settled, startMeteredEnv, userRow } from './env'

/**
 * Anthropic bills a prompt written to its cache at 1.25× the input price (5 minutes) or 2× (1 hour), but the
 * reservation priced every prompt token at the input price: a balance that covered that and not the write settled
 * the difference as `unpaid` (issue #28). A body that can write the cache (cache_control anywhere, Bedrock's
 * cachePoint), or a model whose writes are priced above input and that caches by itself, is now reserved at the
 * write price; settlement bills what the upstream reports (one-hour writes at 2/1.25 of CreateCacheRatio).
 */
let env: RelayEnv
/** prompt tokens the vendor writes to the cache: fewer than our tokenizer counts for PROMPT */
const WRITTEN = 2000
const PROMPT = 'hello '.repeat(WRITTEN)

beforeAll(async () => {
  env = await startMeteredEnv()
  await env.app.deps.options.set('ModelRatio', { 'claude-sonnet-4-5': 1, 'gpt-4o': 1 })
  await env.app.deps.options.set('CompletionRatio', { 'claude-sonnet-4-5': 1, 'gpt-4o': 1 })
  await env.app.deps.options.set('CreateCacheRatio', { 'claude-sonnet-4-5': 1.25, 'gpt-4o': 1.25 })
  await env.app.deps.options.set('ChannelFailureThreshold', 1000)
  await env.addChannel({ type: 14, models: 'claude-sonnet-4-5' })
  await env.addChannel({ type: 1, models: 'gpt-4o' })
})
afterAll(() => env.stop())
beforeEach(() => {
  env.upstream.reset()
  env.outcomes.length = 0
  env.upstream.setBehavior({ text: 'ok', usage: { input: 0, cacheWrite: WRITTEN, output: 20 } })
})

const cached = (ttl?: string) => ({ type: 'text', text: PROMPT, cache_control: ttl ? { type: 'ephemeral', ttl } : { type: 'ephemeral' } })
/** what the prompt and 100 output tokens cost without the cache, a little over (framing) */
const NO_CACHE = WRITTEN + 100 + 50

describe('a prompt that may be written to the cache is reserved at the write price', () => {
  test('5 minutes: a balance that covers the input price but not 1.25× is refused before dispatch, nothing taken', async () => {
    const balance = NO_CACHE + 200 // < 2,000 × 1.25 + 100
    const { user, key } = await account(env, balance)
    const res = await messages(env, key, { model: 'claude-sonnet-4-5', max_tokens: 100, system: [cached()], messages: [{ role: 'user', content: 'hi' }] })
    expect(res.status).toBe(403)
    expect(((await res.json()) as any).error.message).toContain('insufficient quota')
    expect(env.upstream.requests).toHaveLength(0)
    expect((await userRow(env, user.id)).quota).toBe(balance)
  })

  test('without an output cap the write is paid first: refused when what is left buys fewer than MinOutputTokens', async () => {
    const body = { model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: [{ type: 'text', text: PROMPT, cache_control: { type: 'ephemeral' } }] }] }
    // a text-only prompt is bounded by its bytes (the cap is bought beside that): a vendor that counts as many writes them,
    // and the model writes the whole cap it is sent
    const bound = JSON.stringify(body).length
    env.upstream.setBehavior((req) => ({ text: 'ok', usage: { input: 0, cacheWrite: PROMPT.length, output: req.json.max_tokens ?? 20_000 } }))
    const balance = bound + 1024 + 300 // buys MinOutputTokens beside the prompt at the input price, not beside its write
    const { user, key } = await account(env, balance)
    const res = await chat(env, key, body)
    expect(res.status).toBe(403)
    expect(env.upstream.requests).toHaveLength(0)
    expect((await userRow(env, user.id)).quota).toBe(balance)
  })

  test('served with a balance for the write: billed what the upstream reports, the rest refunded, no unpaid', async () => {
    const balance = 10_000
    const { user, key } = await account(env, balance)
    const res = await messages(env, key, { model: 'claude-sonnet-4-5', max_tokens: 100, system: [cached()], messages: [{ role: 'user', content: 'hi' }] })
    expect(res.status).toBe(200)
    await settled(env, 1)
    const [row] = await logsOf(env, user.id)
    const other = JSON.parse(row!.other)
    expect(other.unpaid).toBeUndefined()
    expect(other.reserved).toBeGreaterThanOrEqual(WRITTEN * 1.25 + 100)
    expect(row!.quota).toBe(WRITTEN * 1.25 + 20)
    expect((await userRow(env, user.id)).quota).toBe(balance - row!.quota)
  })

  test('1 hour: reserved and billed at 2× the input price (CreateCacheRatio 1.25 × 2/1.25)', async () => {
    const refused = await account(env, Math.ceil(WRITTEN * 1.25) + 400) // covers a 5-minute write, not an hour's
    const body = { model: 'claude-sonnet-4-5', max_tokens: 100, system: [cached('1h')], messages: [{ role: 'user', content: 'hi' }] }
    expect((await messages(env, refused.key, body)).status).toBe(403)
    env.upstream.setBehavior({ text: 'ok', usage: { input: 0, cacheWrite: WRITTEN, cacheWrite1h: WRITTEN, output: 20 } })
    const { user, key } = await account(env, 10_000)
    expect((await messages(env, key, body)).status).toBe(200)
    await settled(env, 1)
    const [row] = await logsOf(env, user.id)
    expect(JSON.parse(row!.other).unpaid).toBeUndefined()
    expect(row!.quota).toBe(WRITTEN * 2 + 20)
  })

  test('a stream settles the one-hour writes the same way', async () => {
    env.upstream.setBehavior({ text: 'ok', usage: { input: 0, cacheWrite: WRITTEN, cacheWrite1h: WRITTEN, output: 20 } })
    const { user, key } = await account(env, 10_000)
    const res = await messages(env, key, { model: 'claude-sonnet-4-5', max_tokens: 100, stream: true, system: [cached('1h')], messages: [{ role: 'user', content: 'hi' }] })
    await res.text()
    await settled(env, 1)
    const [row] = await logsOf(env, user.id)
    expect(row!.quota).toBe(WRITTEN * 2 + 20)
  })

  test('a model that caches by itself, its writes priced above input (CreateCacheRatio): reserved at the write price unasked', async () => {
    const balance = NO_CACHE + 200
    const { key } = await account(env, balance)
    const res = await chat(env, key, { model: 'gpt-4o', max_tokens: 100, messages: [{ role: 'user', content: PROMPT }] })
    expect(res.status).toBe(403)
  })

  test('no cache_control, Claude: reserved at the input price as before (a balance between the two is served)', async () => {
    env.upstream.setBehavior({ text: 'ok', usage: { input: WRITTEN, output: 20 } })
    const balance = NO_CACHE + 200
    const { user, key } = await account(env, balance)
    const res = await messages(env, key, { model: 'claude-sonnet-4-5', max_tokens: 100, messages: [{ role: 'user', content: PROMPT }] })
    expect(res.status).toBe(200)
    await settled(env, 1)
    const [row] = await logsOf(env, user.id)
    expect(JSON.parse(row!.other).unpaid).toBeUndefined()
  })
})
