import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import type { RelayInput } from '../../src/relay/types'
import type { Reservation } from '../../src/metering/reserve'
import { estimateQuota, findPrice } from '../../src/metering/prices'
import { decodeRequest } from '../../src/protocols/anthropic/decode-request'
import { countRequestTokens } from '../../src/relay/meter/tokenize'
import { bodyLimits, WHOLE_BODY_BYTES } from '../../src/relay/body/request-body'
import { agentBody } from '../helpers/agent-body'
import { blobReads } from '../helpers/blob-reads'
import type { RelayEnv } from '../helpers/relay-env'
import { account, logsOf, logsWhen, messages, settled, startMeteredEnv, userRow } from './env'

/**
 * Issue #18: a long text prompt reserves its byte count (an upper bound on its tokens) without parsing the body;
 * a long prompt with images or files is decoded and bounded by its texts (base64 bytes are not tokens), as
 * before; settlement bills the upstream's usage either way.
 */
let env: RelayEnv
beforeAll(async () => {
  env = await startMeteredEnv()
  await env.addChannel({ type: 14, models: 'claude-sonnet-4-5', name: 'anthropic' })
})
afterAll(() => env.stop())
beforeEach(() => {
  env.upstream.reset()
  env.outcomes.length = 0
})

const reservation = (i: number) => env.outcomes[i]!.reservation as Reservation

describe('the reservation of a long prompt', () => {
  test('text only: the byte count, not exact; billed by the usage reported', async () => {
    const { user, key } = await account(env, 50_000_000)
    env.upstream.setBehavior({ text: 'ok', usage: { input: 30_000, output: 5 } })
    const body = { ...agentBody(150_000), stream: false }
    const bytes = Buffer.byteLength(JSON.stringify(body))
    expect(bytes).toBeGreaterThan(WHOLE_BODY_BYTES)
    const res = await messages(env, key, body)
    expect(res.status).toBe(200)
    await settled(env, 1)
    expect(reservation(0)).toMatchObject({ promptTokens: bytes, promptExact: false })
    const [log] = await logsOf(env, user.id)
    expect(log).toMatchObject({ promptTokens: 30_000, completionTokens: 5 })
  })

  test('with an image: bounded by its texts, the image at its flat estimate', async () => {
    const { key } = await account(env, 50_000_000)
    const image = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo'.repeat(10_000) } }
    const body = { model: 'claude-sonnet-4-5', max_tokens: 100, messages: [{ role: 'user', content: [image, { type: 'text', text: 'what is this?' }] }] }
    expect(Buffer.byteLength(JSON.stringify(body))).toBeGreaterThan(100_000)
    const res = await messages(env, key, body)
    expect(res.status).toBe(200)
    await settled(env, 1)
    expect(reservation(0).promptTokens).toBeLessThan(2_000)
  })

})

describe('the reservation of a short prompt (nothing is tokenized before dispatch)', () => {
  const text = (bytes: number) => 'the quick brown fox jumps over the lazy dog; '.repeat(Math.ceil(bytes / 45)).slice(0, bytes)
  const short = (bytes: number) => ({ model: 'claude-sonnet-4-5', max_tokens: 100, messages: [{ role: 'user', content: text(bytes) }] })
  const price = () => findPrice(env.app.deps.options, 'claude-sonnet-4-5', 'default')!
  const quotaFor = (tokens: number) => estimateQuota(price(), tokens, 100, env.app.deps.options.get<number>('QuotaPerUnit'))
  const exactTokens = (body: object) => countRequestTokens(decodeRequest(body).value)

  test('text only: its byte count, not exact, though it is parsed whole', async () => {
    const { key } = await account(env, 50_000_000)
    const body = short(2_000)
    const res = await messages(env, key, body)
    expect(res.status).toBe(200)
    await settled(env, 1)
    expect(reservation(0)).toMatchObject({ promptTokens: Buffer.byteLength(JSON.stringify(body)), promptExact: false })
  })

  test('with an image: counted exactly, the image at the size its header states (a 1×1 PNG: one token at Claude\'s area / 750)', async () => {
    const { key } = await account(env, 50_000_000)
    const image = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==' } }
    const res = await messages(env, key, { model: 'claude-sonnet-4-5', max_tokens: 100, messages: [{ role: 'user', content: [image, { type: 'text', text: 'what is this?' }] }] })
    expect(res.status).toBe(200)
    await settled(env, 1)
    expect(reservation(0).promptExact).toBe(true)
    expect(reservation(0).promptTokens).toBeLessThan(30)
  })

  test("with an image by URL: the model's context window (the image is not in the bytes; tests/metering/input-by-reference.test.ts)", async () => {
    const { key } = await account(env, 50_000_000)
    const image = { type: 'image', source: { type: 'url', url: 'https://example.com/cat.png' } }
    const res = await messages(env, key, { model: 'claude-sonnet-4-5', max_tokens: 100, messages: [{ role: 'user', content: [image, { type: 'text', text: 'what is this?' }] }] })
    expect(res.status).toBe(200)
    await settled(env, 1)
    expect(reservation(0)).toMatchObject({ promptTokens: 200_000, promptExact: false })
  })

  test('a bound the balance cannot hold is counted exactly, and the request served', async () => {
    const body = short(20_000)
    const bound = quotaFor(Buffer.byteLength(JSON.stringify(body)))
    const exact = quotaFor(exactTokens(body))
    expect(exact).toBeLessThan(bound / 2)
    const { key } = await account(env, Math.round((bound + exact) / 2))
    const res = await messages(env, key, body)
    expect(res.status, await res.clone().text()).toBe(200)
    await settled(env, 1)
    expect(reservation(0)).toMatchObject({ promptTokens: exactTokens(body), promptExact: true })
  })

  test('a balance under the exact estimate is refused with that estimate, not the bound', async () => {
    const body = short(20_000)
    const exact = quotaFor(exactTokens(body))
    const { user, key } = await account(env, exact - 100)
    const res = await messages(env, key, body)
    expect(res.status).toBe(403)
    expect(((await res.json()) as any).error.message).toContain(`may cost up to ${exact} (`)
    expect((await userRow(env, user.id)).quota).toBe(exact - 100)
  })
})

describe('a long prompt sent as a shared Blob and let go of while the upstream answers', () => {
  const before = bodyLimits.sharedSendBytes
  beforeAll(() => void (bodyLimits.sharedSendBytes = 50_000))
  afterAll(() => void (bodyLimits.sharedSendBytes = before))

  test('no usage reported: the prompt is counted from the bytes read back, as for a body held', async () => {
    const { user, key } = await account(env, 50_000_000)
    const body = { ...agentBody(150_000), stream: false }
    env.upstream.setBehavior({ text: 'ok', usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } })
    bodyLimits.sharedSendBytes = Number.POSITIVE_INFINITY // held: the count to match
    expect((await messages(env, key, body)).status).toBe(200)
    bodyLimits.sharedSendBytes = 50_000
    expect((await messages(env, key, body)).status).toBe(200)
    await settled(env, 2)
    const [sharedLog, heldLog] = await logsWhen(env, user.id, 2)
    expect(heldLog!.promptTokens).toBeGreaterThan(10_000)
    expect(heldLog!.promptTokens).toBeLessThan(Buffer.byteLength(JSON.stringify(body)) / 2)
    expect(sharedLog!.promptTokens).toBe(heldLog!.promptTokens)
    expect((env.outcomes[1]!.input as RelayInput).body.bytes.length).toBe(Buffer.byteLength(JSON.stringify(body))) // read back
  })

  test('converted, no usage reported: the prompt is counted from the bytes made again from the converted body, as for a body held', async () => {
    await env.addChannel({ type: 1, models: 'gpt-4o', name: 'openai' })
    const { user, key } = await account(env, 50_000_000)
    const body = {
      model: 'gpt-4o',
      max_tokens: 100,
      stream: false,
      messages: Array.from({ length: 40 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `turn ${i}: ${'lorem ipsum é 中 '.repeat(300)}` })),
    }
    env.upstream.setBehavior({ text: 'ok', usage: { input: 0, output: 0 } })
    bodyLimits.sharedSendBytes = Number.POSITIVE_INFINITY // held: the count to match
    const held = await messages(env, key, body)
    expect(held.status, await held.text()).toBe(200)
    bodyLimits.sharedSendBytes = 50_000
    const { sizes: readBack } = await blobReads(async () => {
      expect((await messages(env, key, body)).status).toBe(200)
      await settled(env, 2)
    })
    expect(readBack).toEqual([Buffer.byteLength(env.upstream.requests[1]!.body)]) // let go of, and made again from the converted body to be counted
    expect(env.upstream.requests.map((r) => r.path)).toEqual(['/v1/chat/completions', '/v1/chat/completions'])
    const [sharedLog, heldLog] = await logsWhen(env, user.id, 2)
    expect(heldLog!.promptTokens).toBeGreaterThan(10_000)
    expect(sharedLog!.promptTokens).toBe(heldLog!.promptTokens)
    expect((env.outcomes[1]!.input as RelayInput).body.bytes.length).toBe(Buffer.byteLength(JSON.stringify(body))) // made again
  })
})
