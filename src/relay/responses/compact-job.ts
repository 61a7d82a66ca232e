import { GatewayError, NotFoundError } from '../../errors'
import { commonErrorMessage } from '../../operations/job-failure'
import { textsMeter } from '../../operations/text-meter'
import { usageFromBody } from '../../protocols/openai-responses/usage-tap'
import { upstreamProtocolFor } from '../chat/upstream-protocol'
import { runRelay, type RelayJob } from '../engine'
import { isRetryableStatus, UpstreamFailure } from '../failure'
import { maskSecrets } from '../mask'
import { mappedStatus } from '../overrides/channel-overrides'
import { withHeaderOverride } from '../overrides/header-override'
import type { RouteCandidate } from '../routing'
import { asUpstreamFailure, guardedFetch, openAttempt } from '../send'
import type { RelayCall, RelayHooks, RelayPorts } from '../types'
import { responsesTarget } from './response-url'
import { previousResponseHome } from './stored-responses'

export const COMPACT_PATH = '/v1/responses/compact'

export interface CompactInput extends RelayCall {
  /** the client's JSON body: `model`, `input`, `instructions`, `previous_response_id`, … */
  body: Record<string, unknown>
}

/**
 * `POST /v1/responses/compact` as a job of the engine: a conversation compacted by an upstream that speaks the
 * Responses API, billed on the tokens the upstream reports at the model's prices. A compaction that names a stored
 * response (`previous_response_id`) goes to the channel and key holding it first.
 */
export function relayCompact(ports: RelayPorts, input: CompactInput, hooks: RelayHooks): Promise<Response> {
  return runRelay(ports, input, compactJob(ports, input), hooks)
}

function compactJob(ports: RelayPorts, input: CompactInput): RelayJob {
  const model = input.body.model
  if (typeof model !== 'string' || !model) throw new GatewayError(400, 'invalid_request', 'model is required', 'model')
  const text = JSON.stringify(input.body)
  return {
    model,
    stream: false,
    warnings: [],
    home: () => previousResponseHome(ports.responses, input.body.previous_response_id, input.user.id),
    serving: (planned) => planned.filter(speaksResponses),
    noneServes: () => new NotFoundError(`model "${model}" is served, but none of its channels serves ${COMPACT_PATH}`, 'model_not_found'),
    // the whole body's tokens bound the input; the compacted output is capped as a chat answer without a cap is
    meter: () => ({ ...textsMeter(model, [text]), maxOutput: ports.options.get<number>('DefaultMaxOutputTokens') }),
    async attempt(candidate, attempt) {
      const { channel, key } = candidate
      const target = responsesTarget(channel, model, key, '/compact')!
      const headers = channel.overrides.headers ? withHeaderOverride(target.headers, channel.overrides.headers, { key, requestId: input.requestId }) : target.headers
      const body = JSON.stringify({ ...input.body, model: candidate.upstreamModel })
      const scope = openAttempt(ports, input.signal)
      attempt.sending()
      try {
        const response = await guardedFetch(ports, target.url, { headers, body, proxy: channel.overrides.proxy }, scope, input.signal, key)
        const answer = await response.text()
        if (!response.ok) throw failureOf(response, answer, key, mappedStatus(channel.overrides, response.status))
        const usage = usageFromBody(parsed(answer, key))
        const firstByteAt = performance.now()
        attempt.end({ usage, aborted: false, firstByteAt })
        return { body: answer, headers: { 'content-type': 'application/json', 'x-request-id': input.requestId }, upstreamDoneAt: firstByteAt }
      } catch (error) {
        throw asUpstreamFailure(error, scope, input.signal, key)
      } finally {
        scope.close()
      }
    },
  }
}

/** A channel whose upstream takes the Responses API as it is (no conversion: a compaction has no chat equivalent). */
function speaksResponses(candidate: RouteCandidate): boolean {
  const { channel } = candidate
  if (channel.provider.connector) return false
  const { protocol, passthrough } = upstreamProtocolFor(channel, 'openai-responses', candidate.upstreamModel)
  return passthrough && protocol === 'openai-responses'
}

function parsed(text: string, key: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    throw new UpstreamFailure(0, `upstream sent a body that is not JSON: ${maskSecrets(text.slice(0, 200), key)}`, true)
  }
}

function failureOf(response: Response, text: string, key: string, status: number): UpstreamFailure {
  let body: unknown = text
  try {
    body = JSON.parse(text)
  } catch {}
  const message = commonErrorMessage(body) ?? (text.slice(0, 500) || response.statusText)
  const mapped = status === response.status ? '' : ` (read as ${status})`
  return new UpstreamFailure(status, `upstream ${response.status}${mapped}: ${maskSecrets(message, key)}`, isRetryableStatus(status))
}
