import { timingSafeEqual } from 'node:crypto'
import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../deps'
import { GatewayError } from '../../errors'
import { EXPOSITION_CONTENT_TYPE, renderMetrics } from '../../ops/exposition'

/**
 * GET /metrics in the Prometheus text format. With METRICS_TOKEN set it wants `Authorization: Bearer <token>`
 * (a missing or wrong one is a 401); without, anyone who reaches the port may read it (keep it behind the
 * reverse proxy, or set the token). METRICS_ENABLED=false removes the route.
 */
export function metricsModule(deps: Pick<AppDeps, 'config' | 'ops' | 'routing' | 'metering' | 'coord'>) {
  const app = new Elysia({ name: 'ops-metrics' })
  if (!deps.config.metricsEnabled) return app
  const expected = deps.config.metricsToken ? Bun.SHA256.hash(deps.config.metricsToken) : undefined
  return app.get(
    '/metrics',
    async ({ headers, server }) => {
      if (expected) {
        const given = /^Bearer\s+(.+)$/i.exec(headers.authorization ?? '')?.[1]?.trim()
        // compared as digests of equal length, in constant time
        if (!given || !timingSafeEqual(Bun.SHA256.hash(given), expected)) {
          throw new GatewayError(401, 'unauthorized', 'GET /metrics needs Authorization: Bearer <METRICS_TOKEN>', undefined, { 'www-authenticate': 'Bearer realm="metrics"' })
        }
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
        description: 'Relay requests, latency, time to first token, upstream latency, tokens, quota, open streams, channel health, log writer and process figures. Needs `Authorization: Bearer <METRICS_TOKEN>` when METRICS_TOKEN is set.',
        security: [{ metricsToken: [] }],
        responses: { 200: { description: 'the exposition', content: { 'text/plain': { schema: { type: 'string' } } } }, 401: { description: 'METRICS_TOKEN is set and the request did not carry it' } },
      },
    },
  )
}
