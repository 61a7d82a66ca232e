import { timingSafeEqual } from 'node:crypto'
import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../deps'
import { GatewayError } from '../../errors'
import { EXPOSITION_CONTENT_TYPE, renderMetrics } from '../../telemetry/exposition'
import { fromThisMachine } from '../../plugins/request-context'

/**
 * GET /metrics in the Prometheus text format. With METRICS_TOKEN set it wants `Authorization: Bearer <token>`
 * (a missing or wrong one is a 401); without, it answers only a client on this host (`fromThisMachine`), and any
 * other a 403 that says to set the token. METRICS_ENABLED=false removes the route.
 */
export function metricsModule(deps: Pick<AppDeps, 'config' | 'ops' | 'routing' | 'metering' | 'coord'>) {
  const app = new Elysia({ name: 'ops-metrics' })
  if (!deps.config.metricsEnabled) return app
  const expected = deps.config.metricsToken ? Bun.SHA256.hash(deps.config.metricsToken) : undefined
  return app.get(
    '/metrics',
    async ({ headers, request, server }) => {
      if (expected) {
        const given = /^Bearer\s+(.+)$/i.exec(headers.authorization ?? '')?.[1]?.trim()
        // compared as digests of equal length, in constant time
        if (!given || !timingSafeEqual(Bun.SHA256.hash(given), expected)) {
          throw new GatewayError(401, 'unauthorized', 'GET /metrics needs Authorization: Bearer <METRICS_TOKEN>', undefined, { 'www-authenticate': 'Bearer realm="metrics"' })
        }
      } else if (!fromThisMachine(request, server)) {
        throw new GatewayError(403, 'forbidden', NOT_LOCAL)
      }
      const channelFailures = await deps.coord.allChannelFailures()
      return new Response(renderMetrics(deps, { pendingRequests: server?.pendingRequests, channelFailures }), {
        headers: { 'content-type': EXPOSITION_CONTENT_TYPE, 'cache-control': 'no-store' },
      })
    },
    {
      headers: t.Object({ authorization: t.Optional(t.String({ description: 'Bearer <METRICS_TOKEN>, when one is set' })) }),
      detail: {
        tags: ['operations'],
        summary: 'Prometheus metrics (text exposition format 0.0.4)',
        description:
          'Relay requests, latency, time to first token, upstream latency, tokens, quota, open streams, channel health, log writer and process figures. Needs `Authorization: Bearer <METRICS_TOKEN>` when METRICS_TOKEN is set; without it, answers only clients on the loopback interface that came through no proxy.',
        security: [{ metricsToken: [] }],
        responses: { 200: { description: 'the exposition', content: { 'text/plain': { schema: { type: 'string' } } } }, 401: { description: 'METRICS_TOKEN is set and the request did not carry it' }, 403: { description: 'no METRICS_TOKEN is set and the client is not on loopback' } },
      },
    },
  )
}

const NOT_LOCAL = 'GET /metrics answers only clients on this host while METRICS_TOKEN is unset: set METRICS_TOKEN and scrape with Authorization: Bearer <token>'
