/**
 * Fake LLM upstreams for the gateway's tests: one Bun server on 127.0.0.1 speaking the Anthropic Messages,
 * OpenAI Chat Completions, OpenAI Responses and Gemini wire formats on their real paths, scripted per test.
 *
 *   const up = await startFakeUpstream({ keys: ['sk-test'] })
 *   up.setBehavior({ text: 'Hi there', reasoning: 'thinking…', usage: { input: 7, output: 3 } })
 *   … point a channel at up.url …
 *   expect(up.requests[0]!.headers['x-api-key']).toBe('sk-test')
 *   await up.stop()
 */
import * as anthropicModule from './anthropic'
import { gemini, listModels as geminiModels } from './gemini'
import { listModels as openaiModels, openaiChat } from './openai-chat'
import { openaiResponses } from './openai-responses'
import { createResponsesStore, RESOURCE_PATH } from './responses-store'
import { bearer, isObject, json, makePlan, sleep } from './shared'
import type { Behavior, Protocol, ProtocolName, RecordedRequest, Scenario } from './types'

export type * from './types'

const { anthropic } = anthropicModule

export interface FakeUpstreamOptions {
  /** accepted API keys, checked in each vendor's own header; none given = no auth enforced */
  keys?: string[]
  /** model ids listed by GET /v1/models and GET /v1beta/models */
  models?: string[]
  /** initial behavior (default: a short text answer) */
  behavior?: Behavior
  /** answer as one vendor does: its own paths, its auth header, the fields it refuses, its model list shape */
  vendor?: VendorMode
}

/**
 * A vendor's OpenAI- or Anthropic-compatible API served by the fake: each vendor path is answered as the fake's own
 * path it maps to (`'/api/paas/v4/chat/completions': '/v1/chat/completions'`); every other path is a 404, so a
 * request the gateway sends to the wrong place fails. Recorded requests keep the vendor path.
 */
export interface VendorMode {
  paths: Record<string, string>
  /** the one header each protocol's key is accepted in (default: the protocol's own, any of its accepted forms) */
  auth?: Partial<Record<ProtocolName, 'bearer' | 'x-api-key'>>
  /** top-level request fields the vendor refuses with a 400 (Cohere: `stream_options`) */
  rejects?: string[]
  /** the model list body in the vendor's shape (default OpenAI's `{object: 'list', data: [{id}]}`) */
  listModels?(models: string[]): unknown
}

export interface FakeUpstream {
  /** http://127.0.0.1:PORT, no trailing slash and no /v1 */
  url: string
  port: number
  /** every request received, in arrival order */
  requests: RecordedRequest[]
  /** script the next replies; resets the request counter used by failFirst and Scenario[] */
  setBehavior(behavior: Behavior): void
  setKeys(keys: string[]): void
  /** how many clients went away before their response was complete */
  readonly disconnects: number
  /** resolves once `disconnects` reaches `count` (default 1); rejects after timeoutMs (default 5000) */
  waitForDisconnect(count?: number, timeoutMs?: number): Promise<void>
  /** the Responses API's stored responses, by id (each under the key that created it) */
  readonly storedResponses: ReadonlyMap<string, { key: string | undefined; response: Record<string, any> }>
  /** clear recorded requests, disconnects and behavior */
  reset(): void
  stop(): Promise<void>
}

const PROTOCOLS: Record<ProtocolName, Protocol> = {
  anthropic,
  'openai-chat': openaiChat,
  'openai-responses': openaiResponses,
  gemini,
}

const DEFAULT_BEHAVIOR: Scenario = { text: 'Hello from the fake upstream.' }
const DEFAULT_MODELS = ['gpt-4o-mini', 'claude-haiku-4-5', 'gemini-2.5-flash']
const GEMINI_PATH = /^\/(v1beta|v1)\/models\/([^/:]+):(generateContent|streamGenerateContent|countTokens)$/
const AZURE_PATH = /^\/openai\/deployments\/([^/]+)\/chat\/completions$/

/** Which protocol and kind a path belongs to (fills rec.protocol, rec.kind, rec.model). */
function route(rec: RecordedRequest): boolean {
  const { method, path } = rec
  const set = (protocol: ProtocolName, kind: RecordedRequest['kind'], model?: unknown) => {
    Object.assign(rec, { protocol, kind, model: typeof model === 'string' ? model : undefined })
    return true
  }
  if (method === 'GET' && path === '/v1/models') {
    // the same path serves three shapes: tell them apart by the caller's headers
    if (rec.headers['x-goog-api-key'] || rec.query['key']) return set('gemini', 'models')
    return set(rec.headers['anthropic-version'] ? 'anthropic' : 'openai-chat', 'models')
  }
  if (method === 'GET' && path === '/v1beta/models') return set('gemini', 'models')
  if (method === 'POST' && path === '/v1/responses/compact') return set('openai-responses', 'compact', rec.json?.model)
  if (RESOURCE_PATH.test(path)) return set('openai-responses', 'resource')
  if (method !== 'POST') return false
  if (path === '/v1/messages') return set('anthropic', 'generate', rec.json?.model)
  if (path === '/v1/messages/count_tokens') return set('anthropic', 'count_tokens', rec.json?.model)
  if (path === '/v1/chat/completions') return set('openai-chat', 'generate', rec.json?.model)
  if (path === '/v1/responses') return set('openai-responses', 'generate', rec.json?.model)
  const azure = AZURE_PATH.exec(path)
  if (azure) return set('openai-chat', 'generate', decodeURIComponent(azure[1]!))
  const g = GEMINI_PATH.exec(path)
  if (g) return set('gemini', g[3] === 'countTokens' ? 'count_tokens' : 'generate', decodeURIComponent(g[2]!))
  return false
}

/** With a vendor mode naming the header a protocol's key goes in, a key anywhere else is a 401. */
function vendorAuth(vendor: VendorMode | undefined, rec: RecordedRequest, keys: string[]): Response | undefined {
  const style = rec.protocol && vendor?.auth?.[rec.protocol]
  if (!style || keys.length === 0) return undefined
  const key = style === 'bearer' ? bearer(rec) : rec.headers['x-api-key']
  if (key !== undefined && keys.includes(key)) return undefined
  const where = style === 'bearer' ? 'an Authorization: Bearer header' : 'an x-api-key header'
  return PROTOCOLS[rec.protocol!].error(401, undefined, `this vendor takes its key in ${where}`)
}

export async function startFakeUpstream(options: FakeUpstreamOptions = {}): Promise<FakeUpstream> {
  const requests: RecordedRequest[] = []
  let keys = options.keys ?? []
  let behavior: Behavior = options.behavior ?? DEFAULT_BEHAVIOR
  let counter = 0
  let disconnects = 0
  let waiters: { count: number; resolve: () => void }[] = []
  const halt = Promise.withResolvers<void>()
  const models = options.models ?? DEFAULT_MODELS
  const responsesStore = createResponsesStore()

  const markAborted = (rec: RecordedRequest) => {
    if (rec.completed || rec.aborted) return
    rec.aborted = true
    if (!requests.includes(rec)) return // recorded before the last reset(): a late disconnect from an earlier test
    disconnects++
    waiters = waiters.filter((w) => (w.count <= disconnects ? (w.resolve(), false) : true))
  }
  const done = (rec: RecordedRequest, response: Response) => ((rec.completed = true), response)

  function nextScenario(rec: RecordedRequest): Scenario {
    const n = counter++
    if (typeof behavior === 'function') return behavior(rec, n)
    if (Array.isArray(behavior)) return behavior[Math.min(n, behavior.length - 1)] ?? DEFAULT_BEHAVIOR
    return behavior
  }

  /** Send `chunks` one by one, honouring delayMs, stall and cutAfter; the client going away counts as a disconnect. */
  function streamBody(rec: RecordedRequest, chunks: string[], s: Scenario, headers: Record<string, string>, stallAt?: number, cutAt?: number) {
    const encoder = new TextEncoder()
    let i = 0
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (cutAt !== undefined && i >= cutAt) {
          await (s.cutWhen ? Promise.race([s.cutWhen, halt.promise]) : sleep(30)) // let the frames already queued reach the socket first
          rec.completed = true
          controller.error(undefined) // resets the connection without a terminating chunk
          return
        }
        if (stallAt !== undefined && i >= stallAt) {
          await halt.promise // hang until stop(), then reset the connection
          rec.completed = true
          controller.error(undefined)
          return
        }
        if (i >= chunks.length) {
          rec.completed = true
          controller.close()
          return
        }
        if (i > 0 && s.delayMs) await sleep(s.delayMs)
        if (s.pauseAt && i === s.pauseAt.after) await Promise.race([sleep(s.pauseAt.ms), halt.promise, ...(s.pauseAt.until ? [s.pauseAt.until] : [])])
        if (rec.aborted) return
        controller.enqueue(encoder.encode(chunks[i++]))
        rec.framesSent = i
      },
      cancel: () => markAborted(rec),
    })
    return new Response(body, { status: 200, headers })
  }

  async function handle(req: Request, server: { requestIP(req: Request): { address: string } | null }): Promise<Response> {
    const url = new URL(req.url)
    const text = await req.text()
    let parsed: unknown
    try {
      parsed = text ? JSON.parse(text) : undefined
    } catch {
      parsed = undefined
    }
    const received: Record<string, string> = {}
    req.headers.forEach((value, name) => (received[name] = value))
    const vendor = options.vendor
    const served = vendor ? vendor.paths[url.pathname] : url.pathname
    const rec: RecordedRequest = {
      method: req.method, path: served ?? url.pathname, query: Object.fromEntries(url.searchParams),
      headers: received, body: text, json: parsed, completed: false, aborted: false, at: Date.now(),
      peer: server.requestIP(req)?.address,
    }
    requests.push(rec)
    req.signal.addEventListener('abort', () => markAborted(rec))
    const routed = served !== undefined && route(rec)
    rec.path = url.pathname // the vendor's own path, as received
    if (!routed || !rec.protocol) return done(rec, json({ error: { message: `no route for ${req.method} ${url.pathname}` } }, 404))
    const protocol = PROTOCOLS[rec.protocol]
    if (AZURE_PATH.test(rec.path) && !rec.query['api-version'])
      return done(rec, json({ error: { code: '404', message: 'Resource not found' } }, 404))
    const denied = vendorAuth(vendor, rec, keys) ?? protocol.auth(rec, keys)
    if (denied) return done(rec, denied)

    if (rec.kind === 'resource') return done(rec, responsesStore.resource(rec))
    if (rec.kind === 'models') {
      if (vendor?.listModels) return done(rec, json(vendor.listModels(models)))
      const list = rec.protocol === 'anthropic' ? anthropicModule.listModels : rec.protocol === 'gemini' ? geminiModels : openaiModels
      return done(rec, list(models))
    }
    const refused = vendor?.rejects?.find((field) => isObject(rec.json) && field in rec.json)
    if (refused) return done(rec, protocol.error(400, undefined, `invalid request: unknown field \`${refused}\``))
    const invalid = rec.kind === 'compact' ? undefined : protocol.validate(rec)
    if (invalid) return done(rec, invalid)
    if (rec.kind === 'count_tokens') {
      const input = typeof behavior === 'object' && !Array.isArray(behavior) ? behavior.usage?.input : undefined
      if (rec.protocol === 'gemini') return done(rec, json({ totalTokens: input ?? Math.ceil(text.length / 4) }))
      return done(rec, anthropicModule.countTokens(rec, input))
    }

    const s = nextScenario(rec)
    const n = counter - 1
    const aborted = new Promise<void>((resolve) => req.signal.addEventListener('abort', () => resolve()))
    if (s.firstByteDelayMs) await Promise.race([sleep(s.firstByteDelayMs), aborted])
    if (s.stall === 'headers') await Promise.race([halt.promise, aborted])
    if (rec.aborted || s.stall === 'headers') return done(rec, new Response(null, { status: 499 }))
    if (s.error && (s.failFirst === undefined || n < s.failFirst))
      return done(rec, protocol.error(s.error.status, s.error.type, s.error.message, s.error.headers))

    const ctx = { rec, body: rec.json, plan: makePlan(s, rec.model ?? 'unknown'), stream: protocol.isStream(rec) }
    if (rec.kind === 'compact') return done(rec, responsesStore.compact(rec, ctx.plan))
    const headers = { ...protocol.headers(), ...s.headers }
    const stallAt = typeof s.stall === 'number' ? s.stall : undefined
    if (ctx.stream) {
      const frames = s.streamError ? protocol.streamError(ctx, s.streamError.type, s.streamError.message) : protocol.frames(ctx)
      if (s.garbage) frames.splice(s.garbage.after, 0, s.garbage.text)
      if (rec.protocol === 'gemini' && rec.query['alt'] !== 'sse') {
        // without alt=sse Gemini streams one JSON array of the same chunks
        const items = frames.map((f) => f.slice('data: '.length).trim())
        const chunks = items.map((item, i) => (i === 0 ? '[' : ',\r\n') + item + (i === items.length - 1 ? ']' : ''))
        return streamBody(rec, chunks, s, { 'content-type': 'application/json; charset=UTF-8', ...headers }, stallAt, s.cutAfter)
      }
      if (rec.protocol === 'openai-responses') responsesStore.created(rec, responsesStore.fromFrames(frames))
      const sse = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', ...headers }
      return streamBody(rec, frames, s, sse, stallAt, s.cutAfter)
    }
    const answer = protocol.body(ctx)
    if (rec.protocol === 'openai-responses') responsesStore.created(rec, answer as Record<string, any>)
    const payload = JSON.stringify(answer)
    if (stallAt !== undefined || s.cutAfter !== undefined) {
      const half = Math.floor(payload.length / 2)
      const chunks = [payload.slice(0, half), payload.slice(half)]
      return streamBody(rec, chunks, s, { 'content-type': 'application/json', ...headers }, stallAt === undefined ? undefined : 1, s.cutAfter === undefined ? undefined : 1)
    }
    return done(rec, new Response(payload, { status: 200, headers: { 'content-type': 'application/json', ...headers } }))
  }

  const server = Bun.serve({ hostname: '127.0.0.1', port: 0, idleTimeout: 0, fetch: handle })
  const port = server.port!
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    setBehavior(b) {
      behavior = b
      counter = 0
    },
    setKeys(k) {
      keys = k
    },
    storedResponses: responsesStore.stored,
    get disconnects() {
      return disconnects
    },
    waitForDisconnect(count = 1, timeoutMs = 5000) {
      if (disconnects >= count) return Promise.resolve()
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`fake upstream: ${disconnects}/${count} disconnects after ${timeoutMs} ms`)), timeoutMs)
        waiters.push({ count, resolve: () => (clearTimeout(timer), resolve()) })
      })
    },
    reset() {
      requests.length = 0
      disconnects = 0
      behavior = options.behavior ?? DEFAULT_BEHAVIOR
      counter = 0
    },
    async stop() {
      halt.resolve()
      await server.stop(true)
    },
  }
}
