import type { TokenRow, UserRow } from '../../db/repos'
import { arrivedAt, requestIdOf } from '../../plugins/request-context'
import type { ProtocolId } from '../../protocols/types'
import type { RelayInput } from '../../relay/pipeline'
import { rawBodyOf } from './raw-body'

export interface RelayRequestContext {
  body: unknown
  request: Request
  caller: { token: TokenRow; user: UserRow }
  clientIp: string
}

/** HTTP → the pipeline's input: the one translation every relay route shares, called after the route's wire check. */
export function relayInputOf(protocol: ProtocolId, { body, request, caller, clientIp }: RelayRequestContext): RelayInput {
  return {
    protocol,
    body: body as Record<string, unknown>,
    bodyChecked: true,
    rawBody: rawBodyOf(request),
    headers: request.headers,
    token: caller.token,
    user: caller.user,
    requestId: requestIdOf(request) ?? '',
    receivedAt: arrivedAt(request),
    clientIp,
    signal: request.signal,
  }
}
