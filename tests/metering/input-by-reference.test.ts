import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import type { RelayEnv } from '../helpers/relay-env'
import { account, logsOf, logsWhen, settled, startMeteredEnv, userRow } from './env'

/**
 * Input a request names but does not hold (a stored response or conversation, a cached content, a file id, media by
 * URL) is billed on the vendor's count, which the body's bytes do not bound: it used to settle beyond the
 * reservation, as `unpaid` once the balance ran out. Such a request is now reserved as the model's whole context
 * window (no input can be larger): refused before dispatch when the balance cannot hold it, never `unpaid`.
 */
let env: RelayEnv
/** what the vendor bills for the input the request names (a long stored conversation, a big PDF) */
const REFERENCED = 90_000

beforeAll(async () => {
  env = await startMeteredEnv()
  const models = ['gpt-4o', 'gpt-5', 'claude-sonnet-4-5', 'gemini-2.5-flash']
  await env.app.deps.options.set('ModelRatio', Object.fromEntries(models.map((m) => [m, 1])))
  await env.app.deps.options.set('CompletionRatio', Object.fromEntries(models.map((m) => [m, 1])))
  await env.app.deps.options.set('ChannelFailureThreshold', 1000)
  await env.addChannel({ type: 1, models: 'gpt-4o,gpt-5' })
  await env.addChannel({ type: 14, models: 'claude-sonnet-4-5' })
  await env.addChannel({ type: 24, models: 'gemini-2.5-flash' })
})
afterAll(() => env.stop())
beforeEach(() => {
  env.upstream.reset()
  env.outcomes.length = 0
  env.upstream.setBehavior({ text: 'ok', usage: { input: REFERENCED, output: 20 } })
})

const send = (path: string, headers: Record<string, string>, body: unknown) =>
  env.app.fetch(path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })

interface Case {
  name: string
  path: string
  headers: (key: string) => Record<string, string>
  body: unknown
  /** the model's context window as shipped */
  context: number
}

const bearer = (key: string) => ({ authorization: `Bearer ${key}` })
const anthropic = (key: string) => ({ 'x-api-key': key, 'anthropic-version': '2023-06-01' })
const hi = { role: 'user', content: 'what is in it?' }
const CASES: Case[] = [
  { name: 'Responses previous_response_id', path: '/v1/responses', headers: bearer, body: { model: 'gpt-5', previous_response_id: 'resp_123', input: 'and then?', max_output_tokens: 100 }, context: 400_000 },
  { name: 'Responses conversation', path: '/v1/responses', headers: bearer, body: { model: 'gpt-5', conversation: 'conv_123', input: 'and then?', max_output_tokens: 100 }, context: 400_000 },
  {
    name: 'Responses input_file by file_id',
    path: '/v1/responses',
    headers: bearer,
    body: { model: 'gpt-5', max_output_tokens: 100, input: [{ role: 'user', content: [{ type: 'input_file', file_id: 'file-123' }, { type: 'input_text', text: 'sum it up' }] }] },
    context: 400_000,
  },
  { name: 'Responses item_reference', path: '/v1/responses', headers: bearer, body: { model: 'gpt-5', max_output_tokens: 100, input: [{ type: 'item_reference', id: 'msg_123' }, { role: 'user', content: 'and then?' }] }, context: 400_000 },
  {
    name: 'chat image_url by http(s) URL',
    path: '/v1/chat/completions',
    headers: bearer,
    body: { model: 'gpt-4o', max_tokens: 100, messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://example.com/scan.png' } }, { type: 'text', text: 'read it' }] }] },
    context: 128_000,
  },
  {
    name: 'chat file by file_id',
    path: '/v1/chat/completions',
    headers: bearer,
    body: { model: 'gpt-4o', max_tokens: 100, messages: [{ role: 'user', content: [{ type: 'file', file: { file_id: 'file-123' } }, { type: 'text', text: 'read it' }] }] },
    context: 128_000,
  },
  {
    name: 'Anthropic document by URL',
    path: '/v1/messages',
    headers: anthropic,
    body: { model: 'claude-sonnet-4-5', max_tokens: 100, messages: [{ role: 'user', content: [{ type: 'document', source: { type: 'url', url: 'https://example.com/a.pdf' } }, { type: 'text', text: 'sum it up' }] }] },
    context: 200_000,
  },
  {
    name: "Anthropic Files API source (the decoder drops it; passthrough sends it)",
    path: '/v1/messages',
    headers: anthropic,
    body: { model: 'claude-sonnet-4-5', max_tokens: 100, messages: [{ role: 'user', content: [{ type: 'document', source: { type: 'file', file_id: 'file_011' } }, { type: 'text', text: 'sum it up' }] }] },
    context: 200_000,
  },
  {
    name: 'Anthropic document inline (a base64 PDF: billed per page, which neither a flat 1,600 nor its bytes bound)',
    path: '/v1/messages',
    headers: anthropic,
    body: { model: 'claude-sonnet-4-5', max_tokens: 100, messages: [{ role: 'user', content: [{ type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: Buffer.from('%PDF-1.7 tiny').toString('base64') } }, { type: 'text', text: 'sum it up' }] }] },
    context: 200_000,
  },
  {
    name: 'chat file inline (a data URL PDF)',
    path: '/v1/chat/completions',
    headers: bearer,
    body: { model: 'gpt-4o', max_tokens: 100, messages: [{ role: 'user', content: [{ type: 'file', file: { filename: 'a.pdf', file_data: `data:application/pdf;base64,${Buffer.from('%PDF-1.7 tiny').toString('base64')}` } }, { type: 'text', text: 'read it' }] }] },
    context: 128_000,
  },
  {
    name: 'Gemini cachedContent',
    path: '/v1beta/models/gemini-2.5-flash:generateContent',
    headers: (key) => ({ 'x-goog-api-key': key }),
    body: { cachedContent: 'cachedContents/abc', contents: [hi].map(() => ({ role: 'user', parts: [{ text: 'and then?' }] })), generationConfig: { maxOutputTokens: 100 } },
    context: 1_048_576,
  },
  {
    name: 'Gemini fileData',
    path: '/v1beta/models/gemini-2.5-flash:generateContent',
    headers: (key) => ({ 'x-goog-api-key': key }),
    body: { contents: [{ role: 'user', parts: [{ fileData: { mimeType: 'application/pdf', fileUri: 'https://generativelanguage.googleapis.com/v1beta/files/abc' } }, { text: 'sum it up' }] }], generationConfig: { maxOutputTokens: 100 } },
    context: 1_048_576,
  },
]

describe('input by reference is reserved as the context window', () => {
  for (const c of CASES) {
    test(`${c.name}: a balance short of the context window is refused before dispatch; a larger one pays the vendor's count in full`, async () => {
      const poor = await account(env, 60_000)
      const refused = await send(c.path, c.headers(poor.key), c.body)
      expect(refused.status).toBe(403)
      expect(await refused.text()).toContain(`is reserved as the model's context window, ${c.context} tokens`)
      expect(env.upstream.requests).toHaveLength(0)
      expect((await logsWhen(env, poor.user.id, 1)).map((r) => [r.type, r.quota])).toEqual([[5, 0]])
      expect((await userRow(env, poor.user.id)).quota).toBe(60_000)

      const balance = c.context + 10_000
      const { user, key } = await account(env, balance)
      const res = await send(c.path, c.headers(key), c.body)
      expect(res.status).toBe(200)
      await settled(env, 1)
      const [row] = await logsOf(env, user.id)
      const other = JSON.parse(row!.other)
      expect(other.unpaid).toBeUndefined()
      expect(other.reserved).toBeGreaterThanOrEqual(c.context)
      expect(row!.quota).toBe(REFERENCED + 20)
      expect(other.warnings.join(' ')).toContain(`reserved as the model's context window, ${c.context} tokens`)
      expect((await userRow(env, user.id)).quota).toBe(balance - REFERENCED - 20)
    })
  }

  test('ModelContextTokens sets the window (a model served with a smaller one reserves less)', async () => {
    await env.app.deps.options.set('ModelContextTokens', { 'gpt-5': 95_000 })
    try {
      const { user, key } = await account(env, 100_000)
      expect((await send('/v1/responses', bearer(key), CASES[0]!.body)).status).toBe(200)
      await settled(env, 1)
      const [row] = await logsOf(env, user.id)
      expect(JSON.parse(row!.other)).toMatchObject({ reserved: 95_100 })
    } finally {
      await env.app.deps.options.set('ModelContextTokens', {})
    }
  })

  test('what ordinary clients send (a data URL, a function tool with a file_id parameter, text) reserves its bytes as before', async () => {
    const { user, key } = await account(env, 60_000)
    env.upstream.setBehavior({ text: 'ok', usage: { input: 50, output: 20 } })
    const tool = { type: 'function', function: { name: 'open', parameters: { type: 'object', properties: { file_id: { type: 'string' } } } } }
    const body = {
      model: 'gpt-4o',
      max_tokens: 100,
      tools: [tool],
      messages: [
        { role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } }, { type: 'text', text: 'open the \\"file_id\\": "x"' }] },
        { role: 'assistant', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'open', arguments: '{"file_id":"f1"}' } }] },
        { role: 'tool', tool_call_id: 'c1', content: 'done' },
      ],
    }
    expect((await send('/v1/chat/completions', bearer(key), body)).status).toBe(200)
    await settled(env, 1)
    const [row] = await logsOf(env, user.id)
    const other = JSON.parse(row!.other)
    expect(other.reserved).toBeLessThan(10_000)
    expect(other.warnings ?? []).toEqual([])
  })
})
