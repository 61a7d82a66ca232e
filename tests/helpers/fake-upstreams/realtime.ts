/**
 * A realtime upstream speaking OpenAI's documented event protocol over a WebSocket: the key as Bearer (OpenAI) or
 * `api-key` (Azure's /openai/realtime), `session.created` on open, then session.update → session.updated,
 * input_audio_buffer.append/commit/clear, conversation.item.create → conversation.item.created, response.create →
 * response.created, text and audio-transcript deltas, response.done with the usage the test set; anything else an
 * `error` event. `refuse` answers the handshake with that status instead.
 */
export interface FakeRealtime {
  url: string
  /** usage each response.done reports */
  usage: Record<string, unknown>
  refuse?: number
  handshakes: { path: string; auth: string | null; beta: string | null }[]
  received: { type: string }[]
  open: number
  stop(): Promise<void>
}

let seq = 0
const id = (prefix: string) => `${prefix}_${++seq}`

export function startFakeRealtime(key: string): FakeRealtime {
  const fake: FakeRealtime = {
    url: '',
    usage: { total_tokens: 0 },
    handshakes: [],
    received: [],
    open: 0,
    stop: async () => void server.stop(true),
  }
  const server = Bun.serve<{ model: string }>({
    hostname: '127.0.0.1',
    port: 0,
    fetch(req, srv) {
      const url = new URL(req.url)
      const auth = req.headers.get('authorization') ?? (req.headers.get('api-key') ? `api-key ${req.headers.get('api-key')}` : null)
      fake.handshakes.push({ path: url.pathname + url.search, auth, beta: req.headers.get('openai-beta') })
      if (fake.refuse) return Response.json({ error: { message: 'refused by the test' } }, { status: fake.refuse })
      if (auth !== `Bearer ${key}` && auth !== `api-key ${key}`) return Response.json({ error: { message: 'Incorrect API key' } }, { status: 401 })
      const model = url.searchParams.get('model') ?? url.searchParams.get('deployment') ?? ''
      return srv.upgrade(req, { data: { model } }) ? undefined : new Response('expected a websocket', { status: 400 })
    },
    websocket: {
      open(ws) {
        fake.open++
        ws.send(JSON.stringify({ type: 'session.created', event_id: id('event'), session: { id: id('sess'), object: 'realtime.session', model: ws.data.model } }))
      },
      close() {
        fake.open--
      },
      message(ws, raw) {
        const event = JSON.parse(String(raw)) as { type: string; event_id?: string; session?: unknown; item?: unknown }
        fake.received.push(event)
        const send = (e: Record<string, unknown>): void => void ws.send(JSON.stringify({ event_id: id('event'), ...e }))
        switch (event.type) {
          case 'session.update':
            return send({ type: 'session.updated', session: event.session })
          case 'input_audio_buffer.append':
            return
          case 'input_audio_buffer.commit':
            return send({ type: 'input_audio_buffer.committed', item_id: id('item'), previous_item_id: null })
          case 'input_audio_buffer.clear':
            return send({ type: 'input_audio_buffer.cleared' })
          case 'conversation.item.create':
            return send({ type: 'conversation.item.created', previous_item_id: null, item: { id: id('item'), ...(event.item as object) } })
          case 'response.create': {
            const response = { id: id('resp'), object: 'realtime.response', status: 'in_progress', output: [] }
            send({ type: 'response.created', response })
            send({ type: 'response.output_audio_transcript.delta', response_id: response.id, item_id: id('item'), output_index: 0, content_index: 0, delta: 'Hello' })
            send({ type: 'response.text.delta', response_id: response.id, item_id: id('item'), output_index: 0, content_index: 0, delta: ' there' })
            return send({ type: 'response.done', response: { ...response, status: 'completed', usage: fake.usage } })
          }
          default:
            return send({ type: 'error', error: { type: 'invalid_request_error', code: 'unknown_event', message: `unknown event ${event.type}`, param: null, event_id: event.event_id ?? null } })
        }
      },
    },
  })
  fake.url = `http://127.0.0.1:${server.port}`
  return fake
}
