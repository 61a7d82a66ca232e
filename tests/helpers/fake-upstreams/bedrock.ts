/**
 * A fake AWS Bedrock runtime on 127.0.0.1: POST /model/{modelId}/converse, /converse-stream, /invoke and
 * /invoke-with-response-stream, answered in Bedrock's wire formats (JSON bodies; AWS event-stream frames with real
 * CRCs for streams). It verifies SigV4 signatures with the known secrets (service `bedrock`, its region, the
 * body's hash, a 5-minute clock window) or Bedrock API keys sent as bearer tokens, validates bodies as Bedrock
 * does, answers Bedrock's own error shapes, and records every request. GET /foundation-models and
 * /inference-profiles answer as the control-plane host does (bedrock-control.ts), signed the same way.
 *
 *   const bedrock = await startFakeBedrock({ credentials: { AKIDFAKE: 'secret' }, apiKeys: ['ABSKfake'] })
 *   bedrock.setBehavior({ text: 'Hi', reasoning: 'hmm', toolCalls: [{ name: 'Bash', arguments: { command: 'ls' } }] })
 *   … a channel with base URL bedrock.url and key `AKIDFAKE|secret|${bedrock.region}` …
 *   expect(bedrock.requests[0]!.operation).toBe('converse-stream')
 *   await bedrock.stop()
 */
import { CONTROL_PATH, controlPlane, DEFAULT_FOUNDATION_MODELS, DEFAULT_INFERENCE_PROFILES, type FoundationModel } from './bedrock-control'
import { bedrockError, converseBody, converseFrames, invokeBody, invokeFrames, requestId, streamErrorFrames, validateConverse, validateInvoke, type BedrockOperation } from './bedrock-replies'
import { json, makePlan, sleep } from './shared'
import { rawTarget, verifySigV4 } from './sigv4-verify'
import type { Behavior, Scenario } from './types'

export interface FakeBedrockOptions {
  /** the region signatures must be scoped to (default us-east-1) */
  region?: string
  /** SigV4 access keys accepted: access key id → secret access key */
  credentials?: Record<string, string>
  /** Bedrock API keys accepted as `Authorization: Bearer` */
  apiKeys?: string[]
  /** initial behavior (default: a short text answer) */
  behavior?: Behavior
  /** what the control plane lists (GET /foundation-models, /inference-profiles); defaults in bedrock-control.ts */
  foundationModels?: FoundationModel[]
  inferenceProfiles?: string[]
  /** inference profiles a page at most (default 1000, as AWS) */
  profilesPerPage?: number
}

interface BedrockRecordedRequest {
  method: string
  /** the path as received, percent-escapes kept (`/model/anthropic.claude-…-v1%3A0/converse`) */
  path: string
  operation?: BedrockOperation
  /** the model id from the path, decoded */
  model?: string
  /** header names lowercased */
  headers: Record<string, string>
  body: string
  json: any
  /** how the request authenticated (undefined: it did not) */
  auth?: 'sigv4' | 'bearer'
  /** the headers the SigV4 signature covered */
  signedHeaders?: string[]
  completed: boolean
  aborted: boolean
  at: number
}

export interface FakeBedrock {
  /** http://127.0.0.1:PORT, the runtime root (no trailing slash) */
  url: string
  port: number
  region: string
  requests: BedrockRecordedRequest[]
  setBehavior(behavior: Behavior): void
  /** clear recorded requests and behavior */
  reset(): void
  stop(): Promise<void>
}

const PATH = /^\/model\/([^/]+)\/(converse|converse-stream|invoke|invoke-with-response-stream)$/
const BEARER_PREFIXES = ['ABSK', 'bedrock-api-key-']

function authenticate(rec: BedrockRecordedRequest, url: string, bytes: Uint8Array, opts: Required<Pick<FakeBedrockOptions, 'region' | 'credentials' | 'apiKeys'>>): Response | undefined {
  const header = rec.headers['authorization'] ?? ''
  const bearer = /^Bearer\s+(.+)$/i.exec(header)?.[1]?.trim()
  if (bearer !== undefined) {
    if (opts.apiKeys.includes(bearer)) return (rec.auth = 'bearer'), undefined
    const known = BEARER_PREFIXES.some((p) => bearer.startsWith(p))
    return json({ Message: known ? 'Authentication failed: Please make sure your API Key is valid.' : 'Invalid API Key format: Must start with pre-defined prefix' }, 403, { 'x-amzn-requestid': requestId() })
  }
  const result = verifySigV4({ method: rec.method, ...rawTarget(url), headers: rec.headers, body: bytes }, { service: 'bedrock', region: opts.region, secretFor: (id) => opts.credentials[id] })
  if (!result.ok) return bedrockError(result.status, result.type, result.message)
  rec.auth = 'sigv4'
  rec.signedHeaders = result.signedHeaders
  return undefined
}

export async function startFakeBedrock(options: FakeBedrockOptions = {}): Promise<FakeBedrock> {
  const opts = { region: options.region ?? 'us-east-1', credentials: options.credentials ?? {}, apiKeys: options.apiKeys ?? [] }
  const requests: BedrockRecordedRequest[] = []
  let behavior: Behavior = options.behavior ?? { text: 'Hello from the fake Bedrock.' }
  let counter = 0
  const halt = Promise.withResolvers<void>()

  function nextScenario(rec: BedrockRecordedRequest): Scenario {
    const n = counter++
    if (typeof behavior === 'function') return behavior({ ...rec, path: rec.path, query: {}, protocol: undefined, kind: 'generate' }, n)
    if (Array.isArray(behavior)) return behavior[Math.min(n, behavior.length - 1)] ?? {}
    return behavior
  }

  /** Frames one by one, honouring delayMs, pauseAt, stall and cutAfter (a cut resets the connection). */
  function stream(rec: BedrockRecordedRequest, frames: Uint8Array[], s: Scenario): Response {
    let i = 0
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const stallAt = typeof s.stall === 'number' ? s.stall : undefined
        if ((s.cutAfter !== undefined && i >= s.cutAfter) || (stallAt !== undefined && i >= stallAt)) {
          if (stallAt !== undefined) await halt.promise
          else await (s.cutWhen ? Promise.race([s.cutWhen, halt.promise]) : sleep(30))
          rec.completed = true
          controller.error(undefined)
          return
        }
        if (i >= frames.length) {
          rec.completed = true
          controller.close()
          return
        }
        if (i > 0 && s.delayMs) await sleep(s.delayMs)
        if (s.pauseAt && i === s.pauseAt.after) await Promise.race([sleep(s.pauseAt.ms), halt.promise, ...(s.pauseAt.until ? [s.pauseAt.until] : [])])
        controller.enqueue(frames[i++]!)
      },
      cancel: () => void (rec.aborted = !rec.completed),
    })
    return new Response(body, { headers: { 'content-type': 'application/vnd.amazon.eventstream', 'x-amzn-requestid': requestId(), ...s.headers } })
  }

  async function handle(req: Request): Promise<Response> {
    const bytes = new Uint8Array(await req.arrayBuffer())
    const text = new TextDecoder().decode(bytes)
    const headers: Record<string, string> = {}
    req.headers.forEach((value, name) => (headers[name] = value))
    const { rawPath } = rawTarget(req.url)
    let parsed: unknown
    try {
      parsed = text ? JSON.parse(text) : undefined
    } catch {
      parsed = undefined
    }
    const rec: BedrockRecordedRequest = { method: req.method, path: rawPath, headers, body: text, json: parsed, completed: false, aborted: false, at: Date.now() }
    requests.push(rec)
    req.signal.addEventListener('abort', () => void (rec.aborted = !rec.completed))
    const done = (r: Response) => ((rec.completed = true), r)
    const control = req.method === 'GET' ? CONTROL_PATH.exec(rawPath) : null
    if (control) {
      rec.operation = control[1] as BedrockOperation
      const denied = Object.keys(opts.credentials).length || opts.apiKeys.length ? authenticate(rec, req.url, bytes, opts) : undefined
      if (denied) return done(denied)
      const models = options.foundationModels ?? DEFAULT_FOUNDATION_MODELS
      return done(controlPlane(control[1]!, new URL(req.url).searchParams, models, options.inferenceProfiles ?? DEFAULT_INFERENCE_PROFILES, opts.region, options.profilesPerPage))
    }
    const route = PATH.exec(rawPath)
    if (!route || req.method !== 'POST') return done(bedrockError(404, 'UnknownOperationException', `Unable to determine service/operation name to be authorized`))
    rec.model = decodeURIComponent(route[1]!)
    rec.operation = route[2] as BedrockOperation
    if (Object.keys(opts.credentials).length || opts.apiKeys.length) {
      const denied = authenticate(rec, req.url, bytes, opts)
      if (denied) return done(denied)
    }
    if (parsed === undefined) return done(bedrockError(400, 'SerializationException', 'Unable to parse request body as JSON'))
    const isInvoke = rec.operation.startsWith('invoke')
    const refused = isInvoke ? validateInvoke(parsed) : validateConverse(parsed)
    if (refused) return done(refused)

    const s = nextScenario(rec)
    const n = counter - 1
    if (s.firstByteDelayMs) await sleep(s.firstByteDelayMs)
    if (s.stall === 'headers') await halt.promise
    if (s.error && (s.failFirst === undefined || n < s.failFirst)) return done(bedrockError(s.error.status, s.error.type, s.error.message, s.error.headers))
    const ctx = { rec: { ...rec, query: {}, kind: 'generate' as const }, body: parsed, plan: makePlan(s, rec.model), stream: rec.operation.endsWith('stream') }
    if (ctx.stream) {
      const frames = s.streamError ? streamErrorFrames(rec.operation, s.streamError.type, s.streamError.message) : isInvoke ? invokeFrames(ctx) : converseFrames(ctx)
      if (s.garbage) frames.splice(s.garbage.after, 0, new TextEncoder().encode(s.garbage.text))
      return stream(rec, frames, s)
    }
    const payload = isInvoke ? invokeBody(ctx) : converseBody(ctx)
    return done(json(payload, 200, { 'x-amzn-requestid': requestId(), ...s.headers }))
  }

  const server = Bun.serve({ hostname: '127.0.0.1', port: 0, idleTimeout: 0, fetch: handle })
  const port = server.port!
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    region: opts.region,
    requests,
    setBehavior(b) {
      behavior = b
      counter = 0
    },
    reset() {
      requests.length = 0
      behavior = options.behavior ?? { text: 'Hello from the fake Bedrock.' }
      counter = 0
    },
    async stop() {
      halt.resolve()
      await server.stop(true)
    },
  }
}
