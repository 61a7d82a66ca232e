import { afterAll, beforeAll, beforeEach, expect, test } from 'bun:test'
import { countRequestTokens, countTextTokens, EXACT_ESTIMATE_BYTES } from '../../src/relay/meter/tokenize'
import { protocolFor } from '../../src/relay/protocol-registry'
import type { RelayEnv } from '../helpers/relay-env'
import { account, chat, chatBody, logsOf, messages, settled, startMeteredEnv, userRow } from './env'
import { until } from '../helpers/wait'

/** A stream that does not finish is billed for what was produced, no more; one that never started costs nothing. */
let env: RelayEnv
beforeAll(async () => {
  env = await startMeteredEnv()
  await env.app.deps.options.set('ChannelFailureThreshold', 1000)
  await env.addChannel({ type: 1, models: 'gpt-4o' })
  await env.addChannel({ type: 14, models: 'claude-sonnet-4-5' })
})
afterAll(() => env.stop())
beforeEach(() => {
  env.upstream.reset()
  env.outcomes.length = 0
})

const words = Array.from({ length: 40 }, (_, i) => `word${i} `)

/** Read the first `n` chunks of a streamed response, then go away. */
async function readThenAbort(response: Response, controller: AbortController, n: number): Promise<void> {
  const reader = response.body!.getReader()
  for (let i = 0; i < n; i++) await reader.read()
  controller.abort()
  await reader.cancel().catch(() => {})
}

test('client goes away mid-stream (OpenAI, usage only at the end): billed for the prompt and the text produced', async () => {
  const { user, key } = await account(env, 1_000_000)
  env.upstream.setBehavior({ text: words, delayMs: 40, usage: { input: 10, output: 5000 } })
  const controller = new AbortController()
  const res = await chat(env, key, chatBody('gpt-4o', { stream: true, stream_options: { include_usage: true } }), { signal: controller.signal })
  await readThenAbort(res, controller, 3)
  await settled(env, 1)
  const outcome = env.outcomes[0]!
  expect(outcome.aborted).toBe(true)
  const [log] = await logsOf(env, user.id)
  const produced = countTextTokens(outcome.output ?? '')
  expect(produced).toBeGreaterThan(0)
  expect(produced).toBeLessThan(countTextTokens(words.join('')))
  expect(log!.completionTokens).toBe(produced)
  expect(log!.quota).toBe(Math.round((log!.promptTokens + produced * 4) * 1.25))
  expect(log!.quota).toBeLessThan(5000 * 4) // never the full reported output it did not get
  expect(JSON.parse(log!.other)).toMatchObject({ aborted: true, estimated: true })
  expect(1_000_000 - (await userRow(env, user.id)).quota).toBe(log!.quota)
})

test('Anthropic passthrough cut by the client: input as reported, output never less than what was produced', async () => {
  const { user, key } = await account(env, 1_000_000)
  env.upstream.setBehavior({ text: words, delayMs: 40, usage: { input: 300, output: 5000 } })
  const controller = new AbortController()
  const res = await messages(env, key, { model: 'claude-sonnet-4-5', max_tokens: 100, stream: true, messages: [{ role: 'user', content: 'hi' }] }, { signal: controller.signal })
  await readThenAbort(res, controller, 4)
  await settled(env, 1)
  const [log] = await logsOf(env, user.id)
  const produced = countTextTokens(env.outcomes[0]!.output ?? '')
  expect(log!.promptTokens).toBe(300) // message_start reported it
  expect(log!.completionTokens).toBe(produced)
  expect(log!.quota).toBe(Math.round((300 + produced * 5) * 1.5))
  expect(1_000_000 - (await userRow(env, user.id)).quota).toBe(log!.quota)
})

test('upstream resets the connection mid-stream: the client got an error event, billed for what it received', async () => {
  const { user, key } = await account(env, 1_000_000)
  env.upstream.setBehavior({ text: words, cutAfter: 6, usage: { input: 10, output: 5000 } })
  const res = await chat(env, key, chatBody('gpt-4o', { stream: true }))
  const text = await res.text()
  expect(text).toContain('error')
  await settled(env, 1)
  const [log] = await logsOf(env, user.id)
  const produced = countTextTokens(env.outcomes[0]!.output ?? '')
  expect(produced).toBeGreaterThan(0)
  expect(log).toMatchObject({ type: 2, completionTokens: produced })
  expect(log!.quota).toBe(Math.round((log!.promptTokens + produced * 4) * 1.25))
  expect(JSON.parse(log!.other).error).toContain('broke')
  expect(1_000_000 - (await userRow(env, user.id)).quota).toBe(log!.quota)
})

test('client goes away before the first byte: nothing is billed', async () => {
  const { user, key } = await account(env, 1_000_000)
  env.upstream.setBehavior({ text: 'late', firstByteDelayMs: 400 })
  const controller = new AbortController()
  const sent = env.upstream.requests.length
  const pending = chat(env, key, chatBody('gpt-4o', { stream: true }), { signal: controller.signal }).catch(() => undefined)
  await until(() => env.upstream.requests.length > sent, { what: 'the request at the upstream' })
  controller.abort()
  await pending
  await settled(env, 1)
  expect((await userRow(env, user.id)).quota).toBe(1_000_000)
  expect((await logsOf(env, user.id))[0]).toMatchObject({ type: 5, quota: 0 })
})

test('an answer whose upstream reported no usage is billed from the prompt estimate and the produced text', async () => {
  const { user, key } = await account(env, 1_000_000)
  env.upstream.setBehavior({ text: words, usage: { input: 0, output: 0 } })
  expect((await chat(env, key, chatBody('gpt-4o'))).status).toBe(200)
  const [log] = await logsOf(env, user.id)
  expect(log!.promptTokens).toBeGreaterThan(0)
  expect(log!.completionTokens).toBe(countTextTokens(words.join('')))
  expect(log!.quota).toBe(Math.round((log!.promptTokens + log!.completionTokens * 4) * 1.25))
  expect(JSON.parse(log!.other).estimated).toBe(true)
})

test('a long prompt reserves an upper bound, but a missing usage is still billed by the tokenizer, not the bound', async () => {
  const { user, key } = await account(env, 100_000_000)
  env.upstream.setBehavior({ text: words, usage: { input: 0, output: 0 } })
  const body = chatBody('gpt-4o', { messages: [{ role: 'user', content: 'The quick brown fox jumps over the lazy dog. '.repeat(Math.ceil((EXACT_ESTIMATE_BYTES * 2) / 45)) }] })
  expect((await chat(env, key, body)).status).toBe(200)
  const [log] = await logsOf(env, user.id)
  const exact = countRequestTokens(protocolFor('openai-chat').decodeRequest(body).value)
  expect(log!.promptTokens).toBe(exact)
  const other = JSON.parse(log!.other)
  expect(other.reserved).toBeGreaterThan(Math.round((exact + 100 * 4) * 1.25)) // the bound, refunded at settle
  expect(log!.quota).toBe(Math.round((exact + log!.completionTokens * 4) * 1.25))
  expect((await userRow(env, user.id)).quota).toBe(100_000_000 - log!.quota)
})
