/**
 * The benchmark's fake LLM upstream: a Bun server on 127.0.0.1, run as its own process so its cost is
 * never measured together with the gateway's. It speaks OpenAI Chat Completions, OpenAI Responses and
 * Anthropic Messages on their real paths, with fixed usage, and answers from precomputed bytes.
 *
 *   bun bench/fake-upstream.ts [--port 0] [--latency-ms 0] [--deltas 64] [--delta-ms 20] [--fail-rate 0] [--parse-bodies]
 *
 * Prints one JSON line `{"port":N}` on stdout once it listens.
 *
 * A body is drained and only its top-level `model`, `stream` and `stream_options` are read (located with the
 * relay's structure scan, ~0.2 ms per MB): the issue #18 "direct" is a fast upstream that only drains the body, and
 * a real upstream's parsing costs the gateway's box nothing. `--parse-bodies` parses every body whole instead, as
 * this fake did until 2026-11-28 (JSON.parse: ~3 ms per MB on this box, which made direct, and the wait between a
 * bench's requests, grow with the body).
 *
 * The defaults apply to every request; the model name can override them per request, so one process (and
 * one gateway channel per model) serves every lane:
 *   `-d<N>` deltas, `-p<MS>` pace between deltas, `-l<MS>` latency before the answer, `-f<PCT>` failure %
 * e.g. `bench-d64-p20` streams 64 deltas 20 ms apart; `bench-d0` streams everything at once.
 * Delta i carries the text `w<i> ` so a client can check that every frame arrived, once, in order.
 */
import { scanJson } from '../src/relay/body/json-scan'

interface Profile {
  deltas: number
  paceMs: number
  latencyMs: number
  failRate: number
}

type Bytes = Uint8Array<ArrayBuffer>
type Wire = 'chat' | 'responses' | 'messages'

interface Prepared {
  /** the non-stream answer */
  body: Bytes
  /** stream frames: head (sent at once, ends with the first delta), one per later delta, tail */
  head: Bytes
  deltas: Bytes[]
  tail: Bytes
  /** head + deltas + tail in one buffer, for unpaced streams */
  whole: Bytes
}

const USAGE = { input: 12, output: 64 }
const CREATED = 1_750_000_000
const enc = new TextEncoder()

function parseArgs(argv: string[]): { port: number; profile: Profile } {
  const get = (name: string, fallback: number) => {
    const i = argv.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`))
    if (i < 0) return fallback
    const raw = argv[i]!.includes('=') ? argv[i]!.split('=')[1]! : argv[i + 1]!
    const n = Number(raw)
    if (!Number.isFinite(n) || n < 0) throw new Error(`--${name} needs a number ≥ 0, got ${raw}`)
    return n
  }
  return {
    port: get('port', 0),
    profile: { deltas: get('deltas', 64), paceMs: get('delta-ms', 20), latencyMs: get('latency-ms', 0), failRate: get('fail-rate', 0) },
  }
}

const { port, profile: defaults } = parseArgs(Bun.argv.slice(2))
const parsesBodies = Bun.argv.includes('--parse-bodies')

interface Fields {
  model?: unknown
  stream?: unknown
  stream_options?: { include_usage?: unknown }
}
const decoder = new TextDecoder()
/** The top-level fields the fake answers by, without building the rest of the body; throws on a body that is not a JSON object. */
function fieldsOf(bytes: Uint8Array): Fields {
  const scan = scanJson(bytes)
  if (scan.problem) throw new Error(scan.problem)
  const read = (key: string) => {
    const span = scan.members.get(key)
    return span ? JSON.parse(decoder.decode(bytes.subarray(span.start, span.end))) : undefined
  }
  return { model: read('model'), stream: read('stream'), stream_options: read('stream_options') }
}

/** Per-model profile, parsed once per model name. */
const profiles = new Map<string, Profile>()
function profileOf(model: string): Profile {
  let p = profiles.get(model)
  if (p) return p
  const num = (re: RegExp, fallback: number) => {
    const m = re.exec(model)
    return m ? Number(m[1]) : fallback
  }
  p = {
    deltas: Math.max(1, num(/-d(\d+)/, defaults.deltas)),
    paceMs: num(/-p(\d+)/, defaults.paceMs),
    latencyMs: num(/-l(\d+)/, defaults.latencyMs),
    failRate: num(/-f(\d+)/, defaults.failRate * 100) / 100,
  }
  if (profiles.size < 1000) profiles.set(model, p)
  return p
}

const deltaText = (i: number) => `w${i} `
const sse = (data: unknown, event?: string) => (event ? `event: ${event}\n` : '') + `data: ${JSON.stringify(data)}\n\n`

function chatFrames(model: string, n: number, includeUsage: boolean) {
  const base = { id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: CREATED, model, system_fingerprint: 'fp_bench' }
  const chunk = (delta: object, finish: string | null = null) => sse({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] })
  const deltas = Array.from({ length: n }, (_, i) => chunk(i === 0 ? { role: 'assistant', content: deltaText(i) } : { content: deltaText(i) }))
  const usage = { prompt_tokens: USAGE.input, completion_tokens: n, total_tokens: USAGE.input + n }
  let tail = chunk({}, 'stop')
  if (includeUsage) tail += sse({ ...base, choices: [], usage })
  tail += 'data: [DONE]\n\n'
  const body = {
    id: 'chatcmpl-bench', object: 'chat.completion', created: CREATED, model, system_fingerprint: 'fp_bench',
    choices: [{ index: 0, message: { role: 'assistant', content: Array.from({ length: n }, (_, i) => deltaText(i)).join(''), refusal: null }, logprobs: null, finish_reason: 'stop' }],
    usage,
  }
  return { body: JSON.stringify(body), head: deltas[0]!, deltas: deltas.slice(1), tail }
}

function messagesFrames(model: string, n: number) {
  const text = Array.from({ length: n }, (_, i) => deltaText(i))
  const message = { id: 'msg_bench', type: 'message', role: 'assistant', model, content: [] as unknown[], stop_reason: null, stop_sequence: null, usage: { input_tokens: USAGE.input, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 1 } }
  const delta = (i: number) => sse({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: text[i] } }, 'content_block_delta')
  const head =
    sse({ type: 'message_start', message }, 'message_start') +
    sse({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }, 'content_block_start') +
    delta(0)
  const tail =
    sse({ type: 'content_block_stop', index: 0 }, 'content_block_stop') +
    sse({ type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: n } }, 'message_delta') +
    sse({ type: 'message_stop' }, 'message_stop')
  const body = { ...message, content: [{ type: 'text', text: text.join('') }], stop_reason: 'end_turn', usage: { ...message.usage, output_tokens: n } }
  return { body: JSON.stringify(body), head, deltas: Array.from({ length: n - 1 }, (_, i) => delta(i + 1)), tail }
}

function responsesFrames(model: string, n: number) {
  const text = Array.from({ length: n }, (_, i) => deltaText(i))
  let seq = 0
  const ev = (type: string, data: object) => sse({ type, ...data, sequence_number: seq++ }, type)
  const usage = { input_tokens: USAGE.input, input_tokens_details: { cached_tokens: 0 }, output_tokens: n, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: USAGE.input + n }
  const response = (status: string, output: unknown[], withUsage: boolean) => ({
    id: 'resp_bench', object: 'response', created_at: CREATED, status, error: null, incomplete_details: null, model, output,
    parallel_tool_calls: true, tool_choice: 'auto', tools: [], usage: withUsage ? usage : null, metadata: {},
  })
  const item = { id: 'msg_bench', type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', annotations: [], text: text.join('') }] }
  const at = { item_id: 'msg_bench', output_index: 0, content_index: 0 }
  const head =
    ev('response.created', { response: response('in_progress', [], false) }) +
    ev('response.in_progress', { response: response('in_progress', [], false) }) +
    ev('response.output_item.added', { output_index: 0, item: { ...item, status: 'in_progress', content: [] } }) +
    ev('response.content_part.added', { ...at, part: { type: 'output_text', annotations: [], text: '' } }) +
    ev('response.output_text.delta', { ...at, delta: text[0] })
  const deltas = Array.from({ length: n - 1 }, (_, i) => ev('response.output_text.delta', { ...at, delta: text[i + 1] }))
  const tail =
    ev('response.output_text.done', { ...at, text: text.join('') }) +
    ev('response.content_part.done', { ...at, part: item.content[0] }) +
    ev('response.output_item.done', { output_index: 0, item }) +
    ev('response.completed', { response: response('completed', [item], true) })
  return { body: JSON.stringify(response('completed', [item], true)), head, deltas, tail }
}

/** Frames per (wire, model, usage flag), built once. */
const prepared = new Map<string, Prepared>()
function prepare(wire: Wire, model: string, n: number, includeUsage: boolean): Prepared {
  const key = `${wire}\0${model}\0${includeUsage}`
  let p = prepared.get(key)
  if (p) return p
  const f = wire === 'chat' ? chatFrames(model, n, includeUsage) : wire === 'messages' ? messagesFrames(model, n) : responsesFrames(model, n)
  const whole = f.head + f.deltas.join('') + f.tail
  p = { body: enc.encode(f.body), head: enc.encode(f.head), deltas: f.deltas.map((d) => enc.encode(d)), tail: enc.encode(f.tail), whole: enc.encode(whole) }
  if (prepared.size < 1000) prepared.set(key, p)
  return p
}

const JSON_HEADERS = { 'content-type': 'application/json' }
const SSE_HEADERS = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' }
const WIRES: Record<string, Wire> = { '/v1/chat/completions': 'chat', '/v1/responses': 'responses', '/v1/messages': 'messages' }
let served = 0
let failed = 0
let openStreams = 0

function failure(wire: Wire): Response {
  failed++
  const body = wire === 'messages'
    ? { type: 'error', error: { type: 'api_error', message: 'bench: injected failure' } }
    : { error: { message: 'bench: injected failure', type: 'server_error', param: null, code: null } }
  return new Response(JSON.stringify(body), { status: 500, headers: JSON_HEADERS })
}

function pacedStream(p: Prepared, paceMs: number, signal: AbortSignal): ReadableStream<Bytes> {
  let i = -1
  let closed = false
  return new ReadableStream<Bytes>({
    start() {
      openStreams++
    },
    async pull(controller) {
      if (i === -1) {
        i = 0
        return controller.enqueue(p.head)
      }
      await Bun.sleep(paceMs)
      if (signal.aborted || closed) return
      if (i < p.deltas.length) return controller.enqueue(p.deltas[i++]!)
      controller.enqueue(p.tail)
      controller.close()
      closed = true
      openStreams--
    },
    cancel() {
      if (!closed) openStreams--
      closed = true
    },
  }, { highWaterMark: 0 })
}

const server = Bun.serve({
  port,
  hostname: '127.0.0.1',
  idleTimeout: 0,
  async fetch(req) {
    const url = new URL(req.url)
    if (req.method === 'GET' && url.pathname === '/stats') return Response.json({ served, failed, openStreams })
    if (req.method === 'GET' && url.pathname === '/v1/models') return Response.json({ object: 'list', data: [{ id: 'bench', object: 'model', created: CREATED, owned_by: 'bench' }] })
    const wire = WIRES[url.pathname]
    if (req.method !== 'POST' || !wire) return new Response('not found', { status: 404 })
    let body: Fields
    try {
      body = parsesBodies ? await req.json() : fieldsOf(await req.bytes())
    } catch {
      return new Response('{"error":{"message":"bad json"}}', { status: 400, headers: JSON_HEADERS })
    }
    served++
    const model = typeof body.model === 'string' ? body.model : 'bench'
    const prof = profileOf(model)
    if (prof.latencyMs > 0) await Bun.sleep(prof.latencyMs)
    if (prof.failRate > 0 && Math.random() < prof.failRate) return failure(wire)
    const p = prepare(wire, model, prof.deltas, body.stream_options?.include_usage === true)
    if (body.stream !== true) return new Response(p.body, { headers: JSON_HEADERS })
    if (prof.paceMs === 0) return new Response(p.whole, { headers: SSE_HEADERS })
    return new Response(pacedStream(p, prof.paceMs, req.signal), { headers: SSE_HEADERS })
  },
})

console.log(JSON.stringify({ port: server.port }))
process.on('SIGTERM', () => {
  server.stop(true)
  process.exit(0)
})
