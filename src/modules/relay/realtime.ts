import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../deps'
import type { ArrivedContext } from '../../plugins/request-context'
import { REALTIME_KEY_SOURCES, type VerifiedToken } from '../../relay/auth'
import type { RelayHooks } from '../../relay/types'
import { relayRealtime } from '../../realtime/job'
import type { RealtimeBridge } from '../../realtime/bridge'
import { apiKeyAuth } from './api-key-auth'
import { relayCallOf } from './relay-input'

interface UpgradeContext extends ArrivedContext {
  request: Request
  caller: VerifiedToken
  clientIp: string
  query: { model: string }
  set: { headers: Record<string, unknown> }
  bridge?: RealtimeBridge
}

interface SessionSocket {
  data: { bridge?: RealtimeBridge }
  send(text: string): unknown
  close(code?: number, reason?: string): unknown
}

/** Frames beyond this close the connection (1009): OpenAI takes audio appends of up to 15 MiB. */
export const REALTIME_MAX_FRAME_BYTES = 16 * 1024 * 1024

/**
 * `GET /v1/realtime?model=…` upgraded to a WebSocket. Everything is decided before the upgrade, in `upgrade`: the key
 * (Bearer, or the `openai-insecure-api-key.` subprotocol browsers send), the model, the quota and the upstream's own
 * handshake (realtime/job.ts); a refusal is an HTTP answer in OpenAI's error shape, never an opened socket.
 */
export function realtimeModule(deps: AppDeps, hooks: RelayHooks) {
  return new Elysia({ name: 'relay-realtime' })
    .use(apiKeyAuth(deps, 'realtime', () => REALTIME_KEY_SOURCES))
    .ws('/v1/realtime', {
      query: t.Object({ model: t.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: true }),
      // Elysia runs `upgrade` once and awaits it (a ws route's beforeHandle runs twice)
      async upgrade(context) {
        const ctx = context as unknown as UpgradeContext
        const offered = (ctx.request.headers.get('sec-websocket-protocol') ?? '').split(',').map((p) => p.trim())
        const beta = offered.includes('openai-beta.realtime-v1') || /realtime=v1/i.test(ctx.request.headers.get('openai-beta') ?? '')
        // the call lives as long as the session, not the handshake's request
        const session = new AbortController()
        const call = { ...relayCallOf('/v1/realtime', ctx), signal: session.signal }
        ctx.bridge = await relayRealtime(deps as Parameters<typeof relayRealtime>[0], { ...call, model: ctx.query.model, beta }, hooks)
        // a browser fails a handshake whose protocol it did not offer; the key's protocol is never echoed
        if (offered.includes('realtime')) ctx.set.headers['sec-websocket-protocol'] = 'realtime'
      },
      open(ws) {
        const socket = ws as unknown as SessionSocket
        socket.data.bridge?.attach({ send: (text) => void socket.send(text), close: (code, reason) => void socket.close(code, reason) })
      },
      message(ws, message) {
        ;(ws as unknown as SessionSocket).data.bridge?.fromClient(message)
      },
      close(ws) {
        ;(ws as unknown as SessionSocket).data.bridge?.clientClosed()
      },
    })
}
