import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { PRESETS } from '../../src/providers/presets'
import { providerFor } from '../../src/providers/registry'
import { createToken } from '../../src/services/tokens/create-token'
import type { TokenFieldsInput } from '../../src/services/tokens/token-fields'
import { addUser } from '../helpers/accounts'
import { startFakeUpstream, type FakeUpstream, type RecordedRequest, type VendorMode } from '../helpers/fake-upstreams'
import { call, startTestApp, type TestApp } from '../helpers/test-app'
import { userHeaders } from '../modules/channels/helpers'

/**
 * Every channel type of the long tail, through the gateway, against a fake that answers only on that vendor's own
 * paths and takes the key only in that vendor's own header: an OpenAI client and an Anthropic client (stream and
 * not), byte-for-byte passthrough to the vendor's Anthropic-compatible endpoint where it has one, the channel test
 * and fetch_models. The channel is created as an admin would, with `POST /api/channel/` (docs/providers.md shows
 * the same calls).
 */

const KEY = 'vendor-key-0123456789abcdef'
const ANSWER = 'Hello from the vendor.'

interface VendorCase {
  label: string
  type: number
  /** the model the channel serves (unique per case: all channels share one gateway) */
  model: string
  /** the vendor's chat completions path, as the fake must receive it */
  chat: string
  /** the vendor's Anthropic-compatible Messages path and the header its key goes in */
  anthropic?: { path: string; auth: 'bearer' | 'x-api-key' }
  /** the vendor's model list path and body shape; null: the vendor has none */
  list: { path: string; body?(models: string[]): unknown } | null
  /** appended to the fake's URL for the channel's base URL (presets whose root has a path) */
  basePath?: string
  /** the channel's `other` */
  other?: string
  /** true when chat streams carry `stream_options` (vendors that refuse it get none) */
  streamOptions: boolean
  /** fields the vendor refuses with a 400 */
  rejects?: string[]
  keyless?: boolean
}

const openaiList = (path: string) => ({ path })

const CASES: VendorCase[] = [
  {
    label: '17 Qwen (DashScope)', type: 17, model: 'qwen-plus', chat: '/compatible-mode/v1/chat/completions',
    anthropic: { path: '/apps/anthropic/v1/messages', auth: 'x-api-key' }, list: openaiList('/compatible-mode/v1/models'), streamOptions: true,
  },
  {
    label: '25 Moonshot', type: 25, model: 'kimi-k2-0905-preview', chat: '/v1/chat/completions',
    anthropic: { path: '/anthropic/v1/messages', auth: 'x-api-key' }, list: openaiList('/v1/models'), streamOptions: true,
  },
  {
    label: '26 Zhipu GLM', type: 26, model: 'glm-4.6', chat: '/api/paas/v4/chat/completions',
    anthropic: { path: '/api/anthropic/v1/messages', auth: 'bearer' }, list: openaiList('/api/paas/v4/models'), streamOptions: true,
  },
  { label: '27 Perplexity', type: 27, model: 'sonar', chat: '/chat/completions', list: null, streamOptions: false },
  { label: '31 01.AI (LingYiWanWu)', type: 31, model: 'yi-lightning', chat: '/v1/chat/completions', list: openaiList('/v1/models'), streamOptions: true },
  {
    label: '34 Cohere', type: 34, model: 'command-a-03-2025', chat: '/compatibility/v1/chat/completions', streamOptions: false, rejects: ['stream_options'],
    list: { path: '/v1/models', body: (models) => ({ models: models.map((name) => ({ name, endpoints: ['chat'], context_length: 256000 })), next_page_token: null }) },
  },
  {
    label: '35 MiniMax', type: 35, model: 'MiniMax-M2', chat: '/v1/chat/completions',
    anthropic: { path: '/anthropic/v1/messages', auth: 'bearer' }, list: openaiList('/v1/models'), streamOptions: true,
  },
  {
    label: '39 Cloudflare Workers AI', type: 39, model: '@cf/meta/llama-3.1-8b-instruct', other: 'acc-0123',
    chat: '/client/v4/accounts/acc-0123/ai/v1/chat/completions', streamOptions: true,
    list: {
      path: '/client/v4/accounts/acc-0123/ai/models/search',
      body: (models) => ({ success: true, errors: [], messages: [], result: models.map((name) => ({ id: crypto.randomUUID(), name, task: { name: 'Text Generation' } })) }),
    },
  },
  {
    label: '43 DeepSeek', type: 43, model: 'deepseek-chat', chat: '/v1/chat/completions',
    anthropic: { path: '/anthropic/v1/messages', auth: 'x-api-key' }, list: openaiList('/v1/models'), streamOptions: true,
  },
  {
    label: '45 Doubao (Ark)', type: 45, model: 'doubao-1-5-pro-32k-250115', chat: '/api/v3/chat/completions',
    anthropic: { path: '/api/compatible/v1/messages', auth: 'bearer' }, list: openaiList('/api/v3/models'), streamOptions: true,
  },
  { label: '46 Baidu Qianfan', type: 46, model: 'ernie-4.0-8k', chat: '/v2/chat/completions', list: openaiList('/v2/models'), streamOptions: true },
  { label: '47 Xinference (keyless)', type: 47, model: 'qwen2.5-instruct', chat: '/v1/chat/completions', list: openaiList('/v1/models'), streamOptions: false, keyless: true },
  { label: '53 Submodel', type: 53, model: 'zai-org/GLM-4.5-FP8', chat: '/v1/chat/completions', list: openaiList('/v1/models'), streamOptions: true },
  // OpenAI-compatible services without a new-api type: Custom (8) channels with the preset's base URL
  ...PRESETS.map((preset, i): VendorCase => {
    const root = new URL(preset.baseUrl).pathname.replace(/\/$/, '')
    return {
      label: `8 preset ${preset.name}`, type: 8, model: preset.models[0] ?? `served-model-${i}`, basePath: root, chat: `${root}/v1/chat/completions`,
      // Together answers its model list with a bare array
      list: { path: `${root}/v1/models`, body: preset.id === 'together' ? (models) => models.map((id) => ({ id, object: 'model', type: 'chat' })) : undefined },
      streamOptions: true,
    }
  }),
]

let app: TestApp
let admin: Record<string, string>
let apiKey: string

beforeAll(async () => {
  app = await startTestApp()
  admin = await userHeaders(app)
  const user = await addUser(app, { username: 'vendor-user', quota: 10_000_000 })
  apiKey = (await createToken(app.deps, { user, fields: { name: 'vendors', unlimited_quota: true } as TokenFieldsInput })).key
})
afterAll(() => app.stop())

const relay = (path: string, body: string, headers: Record<string, string> = {}) =>
  app.fetch(path, { method: 'POST', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', ...headers }, body })

/** The `data:` payloads of an SSE body, parsed (`[DONE]` left out). */
function sseData(text: string): any[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('data:') && line.trim() !== 'data: [DONE]')
    .map((line) => JSON.parse(line.slice(5)))
}
const chatStreamText = (text: string) => sseData(text).map((c) => c.choices?.[0]?.delta?.content ?? '').join('')
const messagesStreamText = (text: string) =>
  sseData(text)
    .filter((e) => e.type === 'content_block_delta' && e.delta?.type === 'text_delta')
    .map((e) => e.delta.text)
    .join('')

function vendorMode(c: VendorCase): VendorMode {
  const paths: Record<string, string> = { [c.chat]: '/v1/chat/completions' }
  if (c.anthropic) paths[c.anthropic.path] = '/v1/messages'
  if (c.list) paths[c.list.path] = '/v1/models'
  const auth: VendorMode['auth'] = { 'openai-chat': 'bearer' }
  if (c.anthropic) auth.anthropic = c.anthropic.auth
  return { paths, auth, rejects: c.rejects, listModels: c.list?.body }
}

/** The key reached the vendor in its own header and nowhere else. */
function expectKeyIn(rec: RecordedRequest, style: 'bearer' | 'x-api-key', keyless = false) {
  if (keyless) {
    expect(rec.headers.authorization).toBeUndefined()
    expect(rec.headers['x-api-key']).toBeUndefined()
    return
  }
  if (style === 'bearer') {
    expect(rec.headers.authorization).toBe(`Bearer ${KEY}`)
    expect(rec.headers['x-api-key']).toBeUndefined()
  } else {
    expect(rec.headers['x-api-key']).toBe(KEY)
    expect(rec.headers.authorization).toBeUndefined()
  }
}

for (const c of CASES) {
  describe(c.label, () => {
    let up: FakeUpstream
    let id: number
    const generations = () => up.requests.filter((r) => r.kind === 'generate')

    beforeAll(async () => {
      up = await startFakeUpstream({ keys: c.keyless ? [] : [KEY], models: [c.model, 'another-model'], behavior: { text: ANSWER, usage: { input: 9, output: 4 } }, vendor: vendorMode(c) })
      const body: Record<string, unknown> = { type: c.type, name: c.label, base_url: up.url + (c.basePath ?? ''), models: c.model }
      if (!c.keyless) body.key = KEY
      if (c.other) body.other = c.other
      const res = await call(app, 'POST', '/api/channel/', body, admin)
      expect(res.status, JSON.stringify(res.body)).toBe(200)
      id = res.body.data.id
    })
    afterAll(() => up.stop())

    test('OpenAI client, non-stream: the vendor path, its auth header, the answer', async () => {
      up.reset()
      const res = await relay('/v1/chat/completions', JSON.stringify({ model: c.model, messages: [{ role: 'user', content: 'hi' }] }))
      const body = (await res.json()) as any
      expect(res.status, JSON.stringify(body)).toBe(200)
      expect(body.choices[0].message.content).toBe(ANSWER)
      const [rec] = generations()
      expect(rec!.path).toBe(c.chat)
      expectKeyIn(rec!, 'bearer', c.keyless)
    })

    test('OpenAI client, stream: the answer streams back; stream_options only where the vendor takes it', async () => {
      up.reset()
      const res = await relay('/v1/chat/completions', JSON.stringify({ model: c.model, stream: true, messages: [{ role: 'user', content: 'hi' }] }))
      expect(res.status).toBe(200)
      expect(chatStreamText(await res.text())).toBe(ANSWER)
      const [rec] = generations()
      expect(rec!.path).toBe(c.chat)
      expect(rec!.json.stream_options !== undefined).toBe(c.streamOptions)
    })

    const anthropicBody = (stream: boolean) =>
      // odd spacing and a field no decoder knows: passthrough must forward these bytes as they are
      `{"model":"${c.model}",  "max_tokens":64,"stream":${stream},"messages":[{"role":"user","content":"héllo"}],"metadata":{"user_id":"u-1"}}`
    const anthropicHeaders = { 'anthropic-version': '2023-06-01', 'anthropic-beta': 'fine-grained-tool-streaming-2025-05-14' }

    test(`Anthropic client, non-stream: ${c.anthropic ? 'passed through untouched to the Anthropic-compatible endpoint' : 'converted to chat completions'}`, async () => {
      up.reset()
      const raw = anthropicBody(false)
      const res = await relay('/v1/messages', raw, anthropicHeaders)
      const body = (await res.json()) as any
      expect(res.status, JSON.stringify(body)).toBe(200)
      expect(body.type).toBe('message')
      expect(body.content[0].text).toBe(ANSWER)
      const [rec] = generations()
      if (c.anthropic) {
        expect(rec!.path).toBe(c.anthropic.path)
        expect(rec!.body).toBe(raw)
        expect(rec!.headers['anthropic-beta']).toBe(anthropicHeaders['anthropic-beta'])
        expectKeyIn(rec!, c.anthropic.auth)
      } else {
        expect(rec!.path).toBe(c.chat)
        expect(rec!.json.messages).toEqual([{ role: 'user', content: 'héllo' }])
        expectKeyIn(rec!, 'bearer', c.keyless)
      }
    })

    test(`Anthropic client, stream: ${c.anthropic ? 'passthrough, bytes untouched' : 'converted, stream_options only where taken'}`, async () => {
      up.reset()
      const raw = anthropicBody(true)
      const res = await relay('/v1/messages', raw, anthropicHeaders)
      expect(res.status).toBe(200)
      expect(messagesStreamText(await res.text())).toBe(ANSWER)
      const [rec] = generations()
      if (c.anthropic) {
        expect(rec!.path).toBe(c.anthropic.path)
        expect(rec!.body).toBe(raw)
      } else {
        expect(rec!.path).toBe(c.chat)
        expect(rec!.json.stream).toBe(true)
        expect(rec!.json.stream_options !== undefined).toBe(c.streamOptions)
      }
    })

    test('channel test: a minimal chat on the vendor path', async () => {
      up.reset()
      const res = await call(app, 'GET', `/api/channel/test/${id}`, undefined, admin)
      expect(res.status).toBe(200)
      expect(res.body.success, JSON.stringify(res.body)).toBe(true)
      const [rec] = generations()
      expect(rec!.path).toBe(c.chat)
      expectKeyIn(rec!, 'bearer', c.keyless)
      expect(rec!.json.model).toBe(c.model)
    })

    test(c.list ? 'fetch_models: the vendor list endpoint, parsed' : 'fetch_models: the vendor has no list, and the answer says so', async () => {
      up.reset()
      const res = await call(app, 'GET', `/api/channel/fetch_models/${id}`, undefined, admin)
      if (!c.list) {
        expect(res.status).toBe(400)
        expect(res.body.message).toContain('no model list')
        expect(up.requests).toHaveLength(0)
        return
      }
      expect(res.status, JSON.stringify(res.body)).toBe(200)
      expect(res.body.data).toEqual([c.model, 'another-model'])
      const [rec] = up.requests
      expect(rec!.path).toBe(c.list.path)
      expectKeyIn(rec!, 'bearer', c.keyless)
    })
  })
}

describe('39 Cloudflare: the account id', () => {
  test('a base URL carrying the account id is stored as the root plus `other`, as new-api keeps it', async () => {
    const res = await call(app, 'POST', '/api/channel/', { type: 39, name: 'cf', key: KEY, models: '@cf/openai/gpt-oss-20b', base_url: 'https://api.cloudflare.com/client/v4/accounts/abc123/ai/v1/' }, admin)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body.data).toMatchObject({ base_url: 'https://api.cloudflare.com', other: 'abc123' })
    const bare = await call(app, 'POST', '/api/channel/', { type: 39, name: 'cf', key: KEY, models: '@cf/openai/gpt-oss-20b', base_url: 'https://api.cloudflare.com/client/v4/accounts/xyz' }, admin)
    expect(bare.body.data).toMatchObject({ base_url: 'https://api.cloudflare.com', other: 'xyz' })
  })

  test('without an account id the channel is refused, naming `other`', async () => {
    const res = await call(app, 'POST', '/api/channel/', { type: 39, name: 'cf', key: KEY, models: 'm' }, admin)
    expect(res.status).toBe(400)
    expect(res.body.message).toContain('account id')
  })
})

describe('38 Jina: embeddings and rerank only, never a chat', () => {
  let up: FakeUpstream
  let id: number
  beforeAll(async () => {
    up = await startFakeUpstream({ keys: [KEY] })
    const res = await call(app, 'POST', '/api/channel/', { type: 38, name: 'jina', key: KEY, base_url: up.url, models: 'jina-embeddings-v3' }, admin)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    id = res.body.data.id
  })
  afterAll(() => up.stop())

  test('the type speaks no chat protocol; the console is told why', async () => {
    expect(providerFor(38)!.protocols).toEqual([])
    const types = await call(app, 'GET', '/api/channel/models', undefined, admin)
    expect(types.body.data.find((t: any) => t.type === 38)).toMatchObject({ protocols: [], note: expect.stringContaining('embeddings') })
  })

  test('the channel test is an embeddings call on Jina\'s path with its Bearer key, never a chat (tests/operations covers its answers)', async () => {
    const res = await call(app, 'GET', `/api/channel/test/${id}`, undefined, admin)
    expect(res.status).toBe(200)
    expect(up.requests).toHaveLength(1)
    expect(up.requests[0]).toMatchObject({ method: 'POST', path: '/v1/embeddings', headers: { authorization: `Bearer ${KEY}` } })
    expect(up.requests[0]!.json).toEqual({ model: 'jina-embeddings-v3', input: 'hi' })
    up.requests.length = 0
  })

  test('fetch_models: no list endpoint, said plainly, with the models Tollgate knows', async () => {
    const res = await call(app, 'GET', `/api/channel/fetch_models/${id}`, undefined, admin)
    expect(res.status).toBe(400)
    expect(res.body.message).toContain('no model list')
    expect(res.body.message).toContain('jina-embeddings-v4')
  })

  test('its models are listed (they serve /v1/embeddings) but a chat for them finds no channel', async () => {
    const models = await app.fetch('/v1/models', { headers: { authorization: `Bearer ${apiKey}` } })
    const ids = ((await models.json()) as any).data.map((m: any) => m.id)
    expect(ids).toContain('jina-embeddings-v3')
    const res = await relay('/v1/chat/completions', JSON.stringify({ model: 'jina-embeddings-v3', messages: [{ role: 'user', content: 'hi' }] }))
    expect(res.status).toBe(404)
    expect(up.requests).toHaveLength(0)
  })
})
