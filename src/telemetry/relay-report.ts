import type { Settled } from '../metering/settle'
import { describeError } from '../plugins/describe-error'
import type { FailedRequest } from '../plugins/error-routes'
import type { RelayOutcome } from '../relay/types'
import { writeLine, type Logger } from './logger'
import type { RelayMetrics } from './metrics'
import { routeOfPath, routeOfProtocol } from './relay-routes'

/**
 * Every relay generation request ends here exactly once, for its log line and its metrics: a request that
 * passed the reservation when settle has run (`settled`), one refused before it, or without a valid key, where
 * its error is rendered (`refused`). Model lists and token counting are not generation requests and are not
 * reported.
 *
 * The metrics are recorded at once; the log line is written right after, off the request's path (queued, then
 * serialized in a batch on the next turn of the event loop; on the path it added 15-40 µs to the gateway's own
 * p50 in bench/ops-overhead.ts), by `writeLine` (JSON.stringify, ~6× cheaper than pino's own serializer) into
 * the logger's destination. `drain` writes what is queued.
 */
export function createRelayReport(ops: { readonly log: Logger; readonly metrics: RelayMetrics | undefined }) {
  const { metrics } = ops
  let queued: (() => void)[] = []
  const writeQueued = () => {
    const lines = queued
    queued = []
    for (const line of lines) line()
  }
  const later = (line: () => void) => {
    if (queued.push(line) === 1) setImmediate(writeQueued)
  }
  return {
    /** write the queued log lines now (shutdown) */
    drain: writeQueued,

    settled(outcome: RelayOutcome, billed: Settled | undefined): void {
      const log = ops.log
      const { input } = outcome
      const route = routeOfProtocol(input.protocol, input.token.id < 0, outcome.stream)
      const began = input.receivedAt ?? outcome.startedAt
      const latencyMs = outcome.endedAt - began
      const ttftMs = outcome.stream && outcome.firstByteAt !== undefined ? outcome.firstByteAt - began : undefined
      const upstreamMs = outcome.firstByteAt !== undefined && outcome.upstreamSentAt !== undefined ? outcome.firstByteAt - outcome.upstreamSentAt : undefined
      metrics?.observe(route, outcome.model, outcome.channelId, outcome.status, latencyMs, ttftMs, upstreamMs, billed?.inputTokens, billed?.outputTokens, billed?.quota)
      if (!log.isLevelEnabled('info')) return
      later(() =>
        writeLine(log, {
          level: 'info',
          time: new Date().toISOString(),
          request_id: input.requestId,
          route,
          status: outcome.status,
          model: outcome.model,
          upstream_model: outcome.upstreamModel,
          channel: outcome.channelId,
          user: input.user.username,
          user_id: input.user.id,
          token: input.token.name,
          token_id: input.token.id,
          stream: outcome.stream,
          latency_ms: round(latencyMs),
          ttft_ms: ttftMs === undefined ? null : round(ttftMs),
          upstream_ms: upstreamMs === undefined ? null : round(upstreamMs),
          tokens_in: billed?.inputTokens ?? 0,
          tokens_out: billed?.outputTokens ?? 0,
          quota: billed?.quota ?? 0,
          attempts: outcome.attempts.length,
          ...(outcome.aborted ? { aborted: true } : {}),
          ...(outcome.error ? { error: outcome.error } : {}),
          ip: input.clientIp,
          msg: 'relay request',
        }),
      )
    },

    /** A relay error answer that settle did not see (its caller's key may be missing or bad). */
    refused(failed: FailedRequest): void {
      if (failed.request.method !== 'POST') return
      const route = routeOfPath(failed.path)
      if (!route) return
      const view = describeError(failed.code, failed.error, false)
      const log = ops.log
      const began = failed.arrival?.at
      const latencyMs = began === undefined ? 0 : performance.now() - began
      const model = modelOf(failed)
      // the metrics label it only if some channel lists it
      metrics?.observe(route, model, 0, view.status, latencyMs)
      if (!log.isLevelEnabled('info')) return
      const caller = failed.caller
      const requestId = failed.arrival?.id ?? null
      later(() =>
        writeLine(log, {
          level: 'info',
          time: new Date().toISOString(),
          request_id: requestId,
          route,
          status: view.status,
          model: model.slice(0, 200),
          channel: 0,
          user: caller?.user.username ?? null,
          user_id: caller?.user.id ?? null,
          token: caller?.token.name ?? null,
          token_id: caller?.token.id ?? null,
          latency_ms: round(latencyMs),
          ttft_ms: null,
          tokens_in: 0,
          tokens_out: 0,
          quota: 0,
          error: view.code,
          ...(failed.clientIp ? { ip: failed.clientIp } : {}),
          msg: 'relay request refused',
        }),
      )
    },
  }
}

export type RelayReport = ReturnType<typeof createRelayReport>

const round = (ms: number) => Math.round(ms * 1000) / 1000

function modelOf(failed: FailedRequest): string {
  const body = failed.body as { model?: unknown } | undefined
  if (typeof body?.model === 'string') return body.model
  const gemini = /\/models\/([^/]+):[a-zA-Z]+$/.exec(failed.path)
  if (!gemini) return ''
  try {
    return decodeURIComponent(gemini[1]!)
  } catch {
    return gemini[1]!
  }
}
