import { emptyUsage, type Usage } from '../ir'
import { maskSecrets } from '../relay/mask'
import { addUsage, responseUsage } from './usage'

/** The client's side of the session, as the route hands it over once the upgrade is done. */
export interface ClientSide {
  send(text: string): void
  close(code: number, reason: string): void
}

/** How the session ended, for the one settlement (the engine's `attempt.end`). */
export interface SessionEnd {
  usage: Usage | undefined
  error?: string
  aborted: boolean
  firstByteAt: number | undefined
  /** the gateway ended the session (quota, its limit, shutdown): not the channel's failure */
  endedByGateway?: boolean
}

export interface BridgeOptions {
  upstream: WebSocket
  /** the channel's key, masked out of anything quoted */
  key: string
  maxEventsPerSecond: number
  maxSessionMs: number
  /** the usage so far after each response: false when the reservation cannot cover more */
  topUp(usage: Usage): Promise<boolean>
  end(end: SessionEnd): void
  /** open sessions, for the shutdown drain (telemetry/open-streams) */
  streams?: { add(abort: AbortController): void; delete(abort: AbortController): void }
}

/** A client that has not taken its socket this long after the relay accepted is let go (the upgrade failed). */
const ATTACH_TIMEOUT_MS = 10_000

/**
 * One realtime session: client and upstream WebSockets relayed event by event in both directions. Each upstream
 * `response.done` adds its usage to the session's total and tops the reservation up; when that is refused, or the
 * session runs past its limit, or the gateway shuts down, the client gets the protocol's `error` event and a close,
 * and the upstream is closed. Client events beyond the rate are answered with an `error` event and dropped. Ends
 * (and settles) once, whichever side goes first.
 */
export function createBridge(options: BridgeOptions) {
  const { upstream } = options
  const abort = new AbortController()
  let client: ClientSide | undefined
  const queued: string[] = []
  let usage: Usage | undefined
  let firstByteAt: number | undefined
  let over = false
  let window = { second: 0, count: 0 }
  // top-ups run one after another, in the order the responses ended
  let toppingUp: Promise<unknown> = Promise.resolve()

  const finish = (end: Omit<SessionEnd, 'usage' | 'firstByteAt'>, closeClient?: { code: number; reason: string; error?: { code: string; message: string } }) => {
    if (over) return
    over = true
    clearTimeout(attachTimer)
    clearTimeout(sessionTimer)
    options.streams?.delete(abort)
    if (closeClient && client) {
      if (closeClient.error) client.send(errorEvent(closeClient.error.code, closeClient.error.message))
      client.close(closeClient.code, closeClient.reason)
    }
    if (upstream.readyState === WebSocket.OPEN || upstream.readyState === WebSocket.CONNECTING) upstream.close(1000)
    options.end({ ...end, usage, firstByteAt })
  }

  const toClient = (text: string) => {
    if (client) client.send(text)
    else queued.push(text)
  }

  const responseDone = (event: { response?: { usage?: unknown } }) => {
    const more = responseUsage(event)
    if (!more) return
    usage = addUsage(usage ?? emptyUsage(), more)
    const total = usage
    toppingUp = toppingUp.then(async () => {
      if (over || (await options.topUp(total).catch(() => false))) return
      const message = 'insufficient quota: the balance cannot pay for more of this realtime session'
      finish({ error: message, aborted: false, endedByGateway: true }, { code: 1008, reason: 'insufficient quota', error: { code: 'insufficient_quota', message } })
    })
  }

  upstream.addEventListener('message', (event) => {
    if (over) return
    firstByteAt ??= performance.now()
    const text = typeof event.data === 'string' ? event.data : Buffer.from(event.data as ArrayBuffer).toString()
    toClient(text)
    // only the event that carries usage is parsed
    if (text.includes('"response.done"')) {
      try {
        const parsed = JSON.parse(text) as { type?: string; response?: { usage?: unknown } }
        if (parsed.type === 'response.done') responseDone(parsed)
      } catch {}
    }
  })
  upstream.addEventListener('close', (event) => {
    if (over) return
    const normal = event.code === 1000
    const why = `the upstream closed the session (${event.code}${event.reason ? `: ${maskSecrets(event.reason, options.key)}` : ''})`
    // the top-ups still running see the last response before the session settles
    void toppingUp.then(() => finish({ error: normal ? undefined : why, aborted: false }, { code: normal ? 1000 : 1011, reason: normal ? 'upstream closed' : 'upstream failed' }))
  })

  abort.signal.addEventListener('abort', () => {
    const message = (abort.signal.reason as Error)?.message ?? 'the session was ended'
    finish({ error: message, aborted: false, endedByGateway: true }, { code: 1012, reason: 'gateway shutting down', error: { code: 'server_shutting_down', message } })
  })
  options.streams?.add(abort)
  const attachTimer = setTimeout(() => finish({ aborted: true }), ATTACH_TIMEOUT_MS)
  const sessionTimer = setTimeout(() => {
    const message = `the session reached its limit of ${Math.round(options.maxSessionMs / 1000)} s (RealtimeMaxSessionSeconds)`
    finish({ aborted: false }, { code: 1000, reason: 'session limit reached', error: { code: 'session_expired', message } })
  }, options.maxSessionMs)

  return {
    /** the client's socket is open: what the upstream sent meanwhile goes first */
    attach(side: ClientSide): void {
      clearTimeout(attachTimer)
      if (over) return side.close(1011, 'session already ended')
      client = side
      for (const text of queued.splice(0)) side.send(text)
    },
    /** one client event (Elysia hands parsed JSON), forwarded as it came unless over the rate */
    fromClient(message: unknown): void {
      if (over) return
      const second = Math.floor(performance.now() / 1000)
      if (window.second !== second) window = { second, count: 0 }
      if (++window.count > options.maxEventsPerSecond) {
        client?.send(errorEvent('rate_limit_exceeded', `more than ${options.maxEventsPerSecond} client events per second (RealtimeMaxEventsPerSecond): this event was dropped`))
        return
      }
      upstream.send(typeof message === 'string' ? message : JSON.stringify(message))
    },
    /** the client went away or closed the session: the normal end */
    clientClosed(): void {
      void toppingUp.then(() => finish({ aborted: false }))
    },
  }
}

export type RealtimeBridge = ReturnType<typeof createBridge>

let eventSeq = 0
/** The realtime protocol's server `error` event. */
function errorEvent(code: string, message: string): string {
  return JSON.stringify({ type: 'error', event_id: `event_tollgate_${(++eventSeq).toString(36)}`, error: { type: code === 'insufficient_quota' ? 'insufficient_quota' : 'invalid_request_error', code, message, param: null, event_id: null } })
}
