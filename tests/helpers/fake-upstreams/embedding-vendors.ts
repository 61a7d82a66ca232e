import { fakeVector, type RecordedCall } from './operations'

/**
 * One fake server per embeddings vendor, each answering only on that vendor's own path, taking the key only in
 * that vendor's own header, and refusing what the vendor documents it refuses (field by field, below). Vectors are
 * `fakeVector(text, dimensions)`, so a test can tell which text each came from.
 *
 *   const jina = await startEmbeddingVendor('jina', 'jina-key')
 *   … a channel of type 38 with base_url jina.url …
 *   expect(jina.requests[0]!.json.task).toBe('retrieval.query')
 */
export type EmbeddingVendor = 'azure' | 'ollama' | 'jina' | 'cohere' | 'mistral' | 'siliconflow' | 'qwen' | 'zhipu' | 'doubao' | 'xinference' | 'cloudflare' | 'lenient'

export interface FakeEmbeddingVendor {
  url: string
  requests: RecordedCall[]
  stop(): Promise<void>
}

interface Spec {
  /** the one path (with `*` for a path segment) the vendor serves embeddings on */
  path: string
  auth(headers: Record<string, string>, key: string): boolean
  answer(call: RecordedCall): Response
}

const bearer = (h: Record<string, string>, key: string) => h.authorization === `Bearer ${key}`
const openAiError = (status: number, message: string, code: string | null = null) => Response.json({ error: { message, type: 'invalid_request_error', code } }, { status })

/** `input` as texts; token ids come back as their JSON text (for vendors that take them). */
function inputs(json: any): string[] {
  const input = json.input
  if (typeof input === 'string') return [input]
  if (typeof input[0] === 'number') return [JSON.stringify(input)]
  return input.map((i: unknown) => (typeof i === 'string' ? i : JSON.stringify(i)))
}
const words = (texts: string[]) => texts.reduce((n, t) => n + t.split(/\s+/).length, 0)

/** OpenAI's answer; `base64` honours `encoding_format: base64` (vendors that ignore it answer floats). */
function openAiAnswer(json: any, texts: string[], opts: { base64: boolean; dimensions?: number; usage?: 'prompt' | 'total' | 'none' }): Response {
  const dims = opts.dimensions ?? json.dimensions
  const data = texts.map((text, index) => {
    const vector = fakeVector(text, dims)
    const embedding = opts.base64 && json.encoding_format === 'base64' ? Buffer.from(new Float32Array(vector).buffer).toString('base64') : vector
    return { object: 'embedding', index, embedding }
  })
  const n = words(texts)
  const usage = opts.usage === 'none' ? undefined : opts.usage === 'total' ? { total_tokens: n } : { prompt_tokens: n, total_tokens: n }
  return Response.json({ object: 'list', data, model: json.model, ...(usage ? { usage } : {}) })
}

/** Only these fields, else the vendor's own refusal naming the first other one. */
function unknownField(json: any, allowed: readonly string[]): string | undefined {
  return Object.keys(json).find((k) => !allowed.includes(k))
}

const textOnly = (json: any) => typeof json.input === 'string' || (Array.isArray(json.input) && json.input.every((i: unknown) => typeof i === 'string'))

const SPECS: Record<EmbeddingVendor, Spec> = {
  // Azure OpenAI: the deployment in the path, api-version required, the key in `api-key`
  azure: {
    path: '/openai/deployments/*/embeddings',
    auth: (h, key) => h['api-key'] === key,
    answer(call) {
      if (!/[?&]api-version=/.test(call.path)) return Response.json({ error: { code: '404', message: 'Resource not found' } }, { status: 404 })
      return openAiAnswer({ ...call.json, model: /deployments\/([^/]+)\//.exec(call.path)![1] }, inputs(call.json), { base64: true })
    },
  },
  // Ollama's /v1/embeddings: no key needed, text only, encoding_format and dimensions honoured
  ollama: {
    path: '/v1/embeddings',
    auth: () => true,
    answer(call) {
      if (!textOnly(call.json)) return openAiError(400, 'invalid input type')
      return openAiAnswer(call.json, inputs(call.json), { base64: true })
    },
  },
  // Jina: Bearer; extra fields are refused (`encoding_format` included), its own ones pass; floats unless embedding_type says
  jina: {
    path: '/v1/embeddings',
    auth: bearer,
    answer(call) {
      const extra = unknownField(call.json, ['model', 'input', 'embedding_type', 'task', 'dimensions', 'late_chunking', 'normalized', 'truncate'])
      if (extra) return Response.json({ detail: `[RID: x] Validation error: body -> ${extra}: Extra inputs are not permitted` }, { status: 422 })
      const texts = inputs(call.json)
      if (call.json.embedding_type === 'binary') {
        return Response.json({ model: call.json.model, object: 'list', usage: { total_tokens: words(texts), prompt_tokens: words(texts) }, data: texts.map((t, index) => ({ object: 'embedding', index, embedding: [t.length, 7] })) })
      }
      return openAiAnswer(call.json, texts, { base64: false, usage: 'total' })
    },
  },
  // Cohere /v2/embed: input_type required (v3+), texts ≤ 96, output_dimension for embed-v4 only; meta.billed_units
  cohere: {
    path: '/v2/embed',
    auth: bearer,
    answer(call) {
      const j = call.json
      if (!j.input_type) return Response.json({ message: 'invalid request: input_type is required for Embed models v3 and higher.' }, { status: 400 })
      if (!Array.isArray(j.texts) || j.texts.length > 96) return Response.json({ message: 'invalid request: texts must be an array of at most 96 strings' }, { status: 400 })
      if (j.output_dimension && j.model !== 'embed-v4.0') return Response.json({ message: 'invalid request: output_dimension is only supported by embed-v4.0' }, { status: 400 })
      const float = j.texts.map((t: string) => fakeVector(t, j.output_dimension))
      return Response.json({ id: 'e1', embeddings: { float }, texts: j.texts, meta: { api_version: { version: '2' }, billed_units: { input_tokens: words(j.texts) + 1 } }, response_type: 'embeddings_by_type' })
    },
  },
  // Mistral: Bearer; unknown fields are a 422 (`dimensions`, `user` included); output_dimension; text only
  mistral: {
    path: '/v1/embeddings',
    auth: bearer,
    answer(call) {
      const extra = unknownField(call.json, ['model', 'input', 'output_dimension', 'output_dtype', 'encoding_format', 'metadata'])
      if (extra) return Response.json({ object: 'error', message: { detail: [{ type: 'extra_forbidden', loc: ['body', extra], msg: 'Extra inputs are not permitted' }] }, type: 'invalid_request_error' }, { status: 422 })
      if (!textOnly(call.json)) return openAiError(422, 'input: Input should be a valid string')
      return openAiAnswer(call.json, inputs(call.json), { base64: true, dimensions: call.json.output_dimension })
    },
  },
  // SiliconFlow: OpenAI's shape, token ids too
  siliconflow: { path: '/v1/embeddings', auth: bearer, answer: (call) => openAiAnswer(call.json, inputs(call.json), { base64: true }) },
  // DashScope compatible mode: encoding_format is float only, at most 10 texts
  qwen: {
    path: '/compatible-mode/v1/embeddings',
    auth: bearer,
    answer(call) {
      if (call.json.encoding_format !== undefined && call.json.encoding_format !== 'float') return Response.json({ error: { code: 'InvalidParameter', message: 'encoding_format only supports float', type: 'invalid_request_error' } }, { status: 400 })
      if (!textOnly(call.json) || inputs(call.json).length > 10) return Response.json({ error: { code: 'InvalidParameter', message: 'input must be text, at most 10 items', type: 'invalid_request_error' } }, { status: 400 })
      return openAiAnswer(call.json, inputs(call.json), { base64: false })
    },
  },
  // Zhipu: its own path, text only, floats
  zhipu: {
    path: '/api/paas/v4/embeddings',
    auth: bearer,
    answer: (call) => (textOnly(call.json) ? openAiAnswer(call.json, inputs(call.json), { base64: false }) : Response.json({ error: { code: '1214', message: 'input 参数非法' } }, { status: 400 })),
  },
  // Volcengine Ark: encoding_format is float only
  doubao: {
    path: '/api/v3/embeddings',
    auth: bearer,
    answer(call) {
      if (call.json.encoding_format !== undefined && call.json.encoding_format !== 'float') return Response.json({ error: { code: 'InvalidParameter', message: 'The parameter `encoding_format` specified in the request are not valid', type: 'BadRequest' } }, { status: 400 })
      return openAiAnswer(call.json, inputs(call.json), { base64: false })
    },
  },
  // Xinference drops encoding_format and answers floats
  xinference: { path: '/v1/embeddings', auth: bearer, answer: (call) => openAiAnswer(call.json, inputs(call.json), { base64: false }) },
  // Cloudflare Workers AI: the account in the path, an API token as Bearer
  cloudflare: { path: '/client/v4/accounts/*/ai/v1/embeddings', auth: bearer, answer: (call) => openAiAnswer(call.json, inputs(call.json), { base64: false }) },
  // an OpenAI-compatible server under a path (Groq-style `/openai`) that ignores encoding_format and reports no usage
  lenient: { path: '/openai/v1/embeddings', auth: bearer, answer: (call) => openAiAnswer(call.json, inputs(call.json), { base64: false, usage: 'none' }) },
}

export async function startEmbeddingVendor(vendor: EmbeddingVendor, key: string): Promise<FakeEmbeddingVendor> {
  const spec = SPECS[vendor]
  const route = new RegExp('^' + spec.path.split('*').map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('[^/]+') + '$')
  const requests: RecordedCall[] = []
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(request) {
      const url = new URL(request.url)
      const body = await request.text()
      let json: any
      try {
        json = JSON.parse(body)
      } catch {}
      const call: RecordedCall = { path: url.pathname + url.search, headers: Object.fromEntries(request.headers), body, json }
      requests.push(call)
      if (request.method !== 'POST' || !route.test(url.pathname)) return openAiError(404, `no route ${request.method} ${url.pathname}`)
      if (!spec.auth(call.headers, key)) return openAiError(401, 'Incorrect API key provided', 'invalid_api_key')
      if (!json) return openAiError(400, 'body is not JSON')
      return spec.answer(call)
    },
  })
  return { url: `http://127.0.0.1:${server.port}`, requests, stop: async () => void (await server.stop(true)) }
}
