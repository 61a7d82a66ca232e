/**
 * A fake upstream for the model APIs besides chat, on their real paths and in each vendor's own shapes:
 * OpenAI `/v1/embeddings` (floats or base64 float32), Gemini `:batchEmbedContents` (x-goog-api-key).
 * Operations add their routes to `ROUTES`. Every request is recorded; a key other than `key` is a 401.
 *
 *   const up = await startOperationsUpstream({ key: 'sk-up' })
 *   … a channel with base_url up.url …
 *   expect(up.requests[0]!.json.input).toEqual(['a', 'b'])
 */
export interface RecordedCall {
  path: string
  headers: Record<string, string>
  /** raw text of a JSON body; '' for multipart */
  body: string
  json: any
  form?: FormData
  /** the bytes of a multipart body as received */
  raw?: Uint8Array
}

export interface OperationsUpstream {
  url: string
  requests: RecordedCall[]
  /** the next answers of `path` fail with this status and body (consumed one per request) */
  failNext(path: string, status: number, body: unknown, times?: number): void
  stop(): Promise<void>
}

type Route = (call: RecordedCall, key: string) => Response | Promise<Response>

/** A vector that tells which text it belongs to: its length, its first char code, then 0.5s. */
export function fakeVector(text: string, dimensions = 4): number[] {
  const v = [text.length, text.charCodeAt(0) || 0]
  while (v.length < dimensions) v.push(0.5)
  return v.slice(0, dimensions)
}

const bearerOk = (call: RecordedCall, key: string) => call.headers.authorization === `Bearer ${key}`
const openAiError = (status: number, message: string) => Response.json({ error: { message, type: 'invalid_request_error', code: null } }, { status })

const ROUTES: Record<string, Route> = {
  'POST /v1/embeddings': (call, key) => {
    if (!bearerOk(call, key)) return openAiError(401, 'Incorrect API key provided')
    const inputs: unknown[] = typeof call.json.input === 'string' ? [call.json.input] : call.json.input
    const data = inputs.map((input, index) => {
      const vector = fakeVector(typeof input === 'string' ? input : JSON.stringify(input), call.json.dimensions)
      const embedding = call.json.encoding_format === 'base64' ? Buffer.from(new Float32Array(vector).buffer).toString('base64') : vector
      return { object: 'embedding', index, embedding }
    })
    const tokens = inputs.reduce<number>((n, input) => n + (typeof input === 'string' ? input.split(/\s+/).length : (input as unknown[]).length), 0)
    return Response.json({ object: 'list', data, model: call.json.model, usage: { prompt_tokens: tokens, total_tokens: tokens } })
  },
  'POST /v1beta/models/*:batchEmbedContents': (call, key) => {
    if (call.headers['x-goog-api-key'] !== key) return Response.json({ error: { code: 400, message: 'API key not valid. Please pass a valid API key.', status: 'INVALID_ARGUMENT' } }, { status: 400 })
    const model = /models\/([^:]+):/.exec(call.path)![1]
    const requests = call.json.requests as { model: string; content: { parts: { text: string }[] }; outputDimensionality?: number }[]
    if (requests.some((r) => r.model !== `models/${model}`)) return Response.json({ error: { code: 400, message: 'model in requests must match the URL', status: 'INVALID_ARGUMENT' } }, { status: 400 })
    return Response.json({ embeddings: requests.map((r) => ({ values: fakeVector(r.content.parts[0]!.text, r.outputDimensionality) })) })
  },
}

/** Adds or replaces a route (`'POST /v1/rerank'`, `*` matches within one path segment). */
export function addOperationRoute(pattern: string, route: Route): void {
  ROUTES[pattern] = route
}

function match(method: string, path: string): Route | undefined {
  for (const [pattern, route] of Object.entries(ROUTES)) {
    const [m, p] = pattern.split(' ') as [string, string]
    if (m !== method) continue
    const re = new RegExp('^' + p.split('*').map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('[^/]*') + '$')
    if (re.test(path)) return route
  }
  return undefined
}

export async function startOperationsUpstream(options: { key: string }): Promise<OperationsUpstream> {
  const requests: RecordedCall[] = []
  const failures = new Map<string, { status: number; body: unknown; times: number }>()
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(request) {
      const url = new URL(request.url)
      const headers = Object.fromEntries(request.headers)
      const multipart = (headers['content-type'] ?? '').startsWith('multipart/form-data')
      // multipart kept raw too: Bun's formData() guesses each file's type from its name, the raw part headers say what was sent
      const raw = multipart ? await request.bytes() : undefined
      const form = raw ? await new Response(raw, { headers: { 'content-type': headers['content-type']! } }).formData() : undefined
      const body = multipart ? '' : await request.text()
      let json: any
      try {
        json = body ? JSON.parse(body) : undefined
      } catch {}
      const call: RecordedCall = { path: url.pathname + url.search, headers, body, json, form, raw }
      requests.push(call)
      const failure = failures.get(url.pathname)
      if (failure && failure.times > 0) {
        failure.times--
        return Response.json(failure.body, { status: failure.status })
      }
      const route = match(request.method, url.pathname)
      return route ? route(call, options.key) : openAiError(404, `no route ${request.method} ${url.pathname}`)
    },
  })
  return {
    url: `http://127.0.0.1:${server.port}`,
    requests,
    failNext(path, status, body, times = 1) {
      failures.set(path, { status, body, times })
    },
    async stop() {
      await server.stop(true)
    },
  }
}
