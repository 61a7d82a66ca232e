import { NotFoundError } from '../errors'
import { OutboundRefused } from '../outbound/fetch'
import { WebSocketDialFailed } from '../outbound/websocket'
import { operationRequest } from '../providers/upstream'
import { runRelay, type RelayJob } from '../relay/engine'
import { isRetryableStatus, UpstreamFailure } from '../relay/failure'
import { maskSecrets } from '../relay/mask'
import { exactMeter, type Meter } from '../relay/meter/meter'
import { withHeaderOverride } from '../relay/overrides/header-override'
import type { RouteCandidate } from '../relay/routing'
import { openAttempt } from '../relay/send'
import type { RelayCall, RelayHooks, RelayPorts } from '../relay/types'
import { createBridge, type RealtimeBridge } from './bridge'

export interface RealtimeInput extends RelayCall {
  model: string
  /** the client asked for the beta protocol (`openai-beta.realtime-v1`, or `OpenAI-Beta: realtime=v1`): the upstream is asked for it too */
  beta: boolean
}

type RealtimePorts = RelayPorts & { outbound: RelayPorts['outbound'] & { webSocket: NonNullable<RelayPorts['outbound']['webSocket']> } }

/**
 * A realtime session as a job of the engine (engine.ts): authorized, planned and reserved as every request is; each
 * attempt dials a channel's realtime WebSocket through the outbound guard, and the next channel is tried only while
 * no upstream has accepted (a refused handshake, a refused address, a timeout). Once one accepts, the session is the
 * bridge's (bridge.ts) and settles when it ends, with the usage of every `response.done`.
 */
export async function relayRealtime(ports: RealtimePorts, input: RealtimeInput, hooks: RelayHooks): Promise<RealtimeBridge> {
  let bridge: RealtimeBridge | undefined
  const reserveTokens = ports.options.get<number>('RealtimeReserveTokens')
  const job: RelayJob = {
    model: input.model,
    stream: true,
    warnings: [],
    serving: (planned) => planned.filter((candidate) => candidate.channel.provider.operations?.realtime),
    noneServes: () => new NotFoundError(`model "${input.model}" is served, but none of its channels serves the realtime API (OpenAI or Azure channels do)`, 'model_not_found'),
    meter: (): Meter => ({ ...exactMeter(input.model, 'token', reserveTokens, { stream: true, maxOutput: reserveTokens }), audio: true }),
    async attempt(candidate, attempt) {
      attempt.sending()
      const upstream = await dial(ports, candidate, input)
      bridge = createBridge({
        upstream,
        key: candidate.key,
        maxEventsPerSecond: ports.options.get<number>('RealtimeMaxEventsPerSecond'),
        maxSessionMs: ports.options.get<number>('RealtimeMaxSessionSeconds') * 1000,
        topUp: attempt.topUp,
        end: attempt.end,
        streams: ports.ops?.streams,
      })
      return { body: '', headers: {}, upstreamDoneAt: performance.now() }
    },
  }
  await runRelay(ports, input, job, hooks)
  return bridge!
}

/** The channel's realtime socket, open; anything before its handshake completes is an UpstreamFailure (keys masked). */
async function dial(ports: RealtimePorts, candidate: RouteCandidate, input: RealtimeInput): Promise<WebSocket> {
  const { channel, key } = candidate
  if (channel.overrides.proxy) throw new UpstreamFailure(0, 'this channel sends through a proxy, which the realtime WebSocket does not support yet', true)
  const target = operationRequest(channel.provider, channel.baseUrl, channel.provider.operations!.realtime!, candidate.upstreamModel, key, { other: channel.other })
  const base = input.beta ? { ...target.headers, 'openai-beta': 'realtime=v1' } : target.headers
  const headers = channel.overrides.headers ? withHeaderOverride(base, channel.overrides.headers, { key, requestId: input.requestId }) : base
  const scope = openAttempt(ports, input.signal)
  try {
    return await ports.outbound.webSocket(target.url, { headers, signal: scope.abort.signal })
  } catch (error) {
    if (error instanceof WebSocketDialFailed) throw new UpstreamFailure(error.status, maskSecrets(error.message, key), error.status === 0 || isRetryableStatus(error.status))
    if (error instanceof OutboundRefused) throw new UpstreamFailure(0, error.message, true)
    if (input.signal.aborted) throw new UpstreamFailure(0, 'the client went away', false)
    const why = scope.abort.signal.aborted ? (scope.abort.signal.reason as Error)?.message : (error as Error).message
    throw new UpstreamFailure(0, maskSecrets(`realtime upstream: ${why}`, key), true)
  } finally {
    scope.close()
  }
}
