import type { TokenRow, UserRow } from '../../db/repos'
import type { Arrival } from '../../plugins/request-context'
import type { ProtocolId } from '../../protocols/types'
import type { RelayCall, RelayInput } from '../../relay/types'
import { requestBodyOf, type RawBody } from './raw-body'

export interface RelayRequestContext {
  body: unknown
  request: Request
  caller: { token: TokenRow; user: UserRow }
  clientIp: string
  /** what the route's parser read (raw-body.ts) */
  rawBody?: RawBody
  /** from the request-context hook, on the same context */
  arrival?: Arrival
}

/** Who is calling and how to reach them, from the request: what every relay route (chat or not) hands its pipeline. */
export function relayCallOf<P extends string>(protocol: P, { request, caller, clientIp, arrival }: Omit<RelayRequestContext, 'body' | 'rawBody'>): RelayCall & { protocol: P } {
  return {
    protocol,
    headers: request.headers,
    token: caller.token,
    user: caller.user,
    requestId: arrival?.id ?? '',
    receivedAt: arrival?.at,
    clientIp,
    signal: request.signal,
  }
}

/** HTTP → the chat job's input: the one translation every chat route shares, called after the route's wire check. */
export function relayInputOf(protocol: ProtocolId, ctx: RelayRequestContext): RelayInput {
  return { ...relayCallOf(protocol, ctx), body: requestBodyOf(ctx.rawBody, protocol), bodyChecked: true }
}
