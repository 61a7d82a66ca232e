import { GatewayError } from '../../errors'
import type { Protocol, UpstreamProtocol } from '../../protocols/types'
import { upstreamRequest } from '../../providers'
import { protocolFor } from '../protocol-registry'
import type { RouteCandidate } from '../routing'
import { attemptUpstream, type AttemptPlan } from './attempt'
import { convertedBody, passthroughBody, payloadText, sharedPayload, type UpstreamBody } from './upstream-body'
import { upstreamProtocolFor } from './upstream-protocol'
import { upstreamProtocolById } from './upstream-protocols'
import { chatMeter } from '../meter/chat-meter'
import { chatRequest, withOutputCap, type ChatRequest } from './request'
import { withoutDeclined } from './declined-choices'
import { runRelay, type RelayJob } from '../engine'
import type { RelayHooks, RelayInput, RelayPorts } from '../types'
import { sessionIdentity } from '../routing/affinity/session-identity'
import { rewritesBody } from '../overrides/channel-overrides'
import { overriddenBody } from '../overrides/overridden-body'
import { withPlanHeaders } from './plan-headers'
import { previousResponseHome, storedResponse } from '../responses/stored-responses'

/**
 * Chat as a job of the engine (engine.ts), for every chat protocol: decode the client's request (a large body only as
 * far as routing needs), meter it, take out what metering declined, and per attempt build the upstream body
 * (passthrough or conversion), send it and answer in the client's protocol (attempt.ts).
 */
export function relayChat(ports: RelayPorts, input: RelayInput, hooks: RelayHooks): Promise<Response> {
  return runRelay(ports, input, chatJob(ports, input), hooks)
}

function chatJob(ports: RelayPorts, input: RelayInput): RelayJob {
  const client = protocolFor(input.protocol)
  // a large body is decoded only as far as routing needs: its top-level fields (chat-request.ts)
  let request = chatRequest(client, input)
  if (!request.head.model) throw new GatewayError(400, 'invalid_request', 'model is required', 'model')
  const warnings = [...request.warnings]
  return {
    get model() {
      return request.head.model
    },
    get stream() {
      return request.head.stream
    },
    get ir() {
      return request.head
    },
    warnings,
    session: () => sessionIdentity(input.headers, (key) => input.body.member(key)),
    home: () => (input.protocol === 'openai-responses' ? previousResponseHome(ports.responses, input.body.member('previous_response_id'), input.user.id) : undefined),
    serving: chatCandidates,
    meter: () => chatMeter(request, input.body, client.priceChoices?.((key) => input.body.member(key), input.headers)),
    reserved(meter) {
      if (meter.declined) {
        // what no option prices goes no further (metering/price-terms.ts): the request is sent without it
        const stripped = withoutDeclined(client, input, meter.declined)
        // a declined beta flag only in the header leaves the body as it was: nothing to decode again
        if (stripped.input.body !== input.body) request = chatRequest(client, stripped.input)
        input = stripped.input
        warnings.push(...stripped.warnings)
      }
      request = withOutputCap(request, meter) // a request without an output cap is sent with metering's
      if (meter.notes) warnings.push(...meter.notes)
    },
    restore: () => input.body.restore(),
    async attempt(candidate, attempt) {
      const plan = withPlanHeaders(planAttempt(ports, input, request, client, candidate), candidate.channel.overrides, { key: candidate.key, requestId: input.requestId })
      // sent as a Blob that can give the bytes back (the request's own, or a body made from them that holds most of them):
      // they are not needed again unless a retry or an exact count asks (restore)
      input.body.release(plan.body)
      const bodyWarnings = plan.body.warnings
      attempt.sending()
      const answerId = storedResponse(ports.responses, input, candidate, request.head.model)
      return attemptUpstream(ports, { ...plan, candidate, input, client, answerId, onEnd: (end) => attempt.end(bodyWarnings.length ? { ...end, warnings: bodyWarnings } : end) })
    },
  }
}

function planAttempt(ports: Pick<RelayPorts, 'outbound' | 'options'>, input: RelayInput, request: ChatRequest, client: Protocol, candidate: RouteCandidate): AttemptPlan {
  const { channel } = candidate
  const provider = channel.provider
  const ir = request.head
  const { protocol, passthrough } = upstreamProtocolFor(channel, input.protocol, candidate.upstreamModel)
  const upstreamProtocol = passthrough && protocol === client.id ? client : upstreamProtocolById(protocol)
  const overrides = channel.overrides
  const sendsAsIs = !provider.connector && !upstreamProtocol.wrapBody && !rewritesBody(overrides)
  const bodyInput = { clientProtocol: input.protocol, body: input.body, clientHeaders: input.headers, request, upstreamModel: candidate.upstreamModel, provider, sendsAsIs }
  let body = passthrough ? passthroughBody(bodyInput, client) : convertedBody(bodyInput, upstreamProtocol)
  // the channel's system prompt and param override, after conversion (none: the bytes go on as they are)
  if (rewritesBody(overrides)) body = overriddenBody(body, overrides, protocol)
  if (upstreamProtocol.wrapBody) body = wrappedBody(body, upstreamProtocol, input.headers)
  const rawAnswer = passthrough && !upstreamProtocol.createFrameParser
  // an answer's encoder reads the request's settings and tools, never its conversation
  const attemptIr = rawAnswer ? ir : request.settings()
  const { fetch, webSocket } = ports.outbound
  const socketCall = provider.socketCall
  if (socketCall && webSocket) {
    // the answer's deadline is the attempt's own (RelayTimeoutSeconds), counted from the dial to the last frame
    const deadlineMs = ports.options.get<number>('RelayTimeoutSeconds') * 1000
    const call = { baseUrl: channel.baseUrl || provider.defaultBaseUrl, model: candidate.upstreamModel, other: channel.other, key: candidate.key, body: payloadText(body), deadlineMs, dial: webSocket }
    return { upstreamProtocol, ir: attemptIr, passthrough, rawAnswer, body, url: '', headers: {}, exchange: (signal) => socketCall({ ...call, signal }) }
  }
  const connector = provider.connector
  if (connector) {
    const call = { protocol, model: candidate.upstreamModel, clientModel: ir.model, stream: ir.stream, key: candidate.key, baseUrl: channel.baseUrl, other: channel.other, setting: channel.setting, client: input.protocol, body: payloadText(body), fetch }
    const connectorCall = { ...call, headers: { 'content-type': 'application/json', ...body.headers } }
    return { upstreamProtocol, ir: attemptIr, passthrough, rawAnswer, body, url: '', headers: {}, connect: () => connector.prepare(connectorCall), rejected: (status) => connector.rejected?.(connectorCall, status) ?? false }
  }
  const target = upstreamRequest(provider, channel.baseUrl, protocol, candidate.upstreamModel, ir.stream, candidate.key, { other: channel.other })
  body = sharedPayload(body, input.body)
  return { upstreamProtocol, ir: attemptIr, passthrough, rawAnswer, body, url: target.url, headers: { ...target.headers, ...body.headers } }
}

/** A body for an upstream that carries the client's protocol in its own envelope (Bedrock invoke, Vertex rawPredict). */
function wrappedBody(body: UpstreamBody, upstream: UpstreamProtocol, clientHeaders: Headers): UpstreamBody {
  const warnings = [...body.warnings]
  const wrapped = upstream.wrapBody!(JSON.parse(payloadText(body)) as Record<string, unknown>, clientHeaders, warnings)
  return { payload: wrapped.text, headers: wrapped.headers, dropUsageChunk: body.dropUsageChunk, warnings }
}

/** Channels whose provider speaks a chat protocol (a Jina channel serves the same model names for embeddings only). */
function chatCandidates(candidates: RouteCandidate[]): RouteCandidate[] {
  for (const c of candidates) if (c.channel.provider.protocols.length === 0) return candidates.filter((d) => d.channel.provider.protocols.length > 0)
  return candidates
}
