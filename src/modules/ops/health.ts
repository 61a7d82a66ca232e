import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../deps'

const Alive = t.Object({ status: t.Literal('ok') }, { description: 'the process is alive and serving HTTP' })
const Readiness = t.Object(
  {
    status: t.Union([t.Literal('ready'), t.Literal('not ready')]),
    checks: t.Object({
      database: t.String({ description: '`ok`, or why the database did not answer' }),
      migrations: t.String({ description: '`ok`, or the migrations not applied yet' }),
      draining: t.Boolean({ description: 'true once SIGTERM was received' }),
    }),
  },
  { description: 'whether this instance should get traffic' },
)

/**
 * Liveness and readiness, for Docker's HEALTHCHECK, systemd, Kubernetes probes and load balancers. Neither
 * needs a login, and neither says more than ok / not ok and why.
 */
export function healthModule(deps: Pick<AppDeps, 'repos' | 'ops'>) {
  return new Elysia({ name: 'ops-health' })
    .get('/healthz', () => ({ status: 'ok' as const }), {
      response: Alive,
      detail: { tags: ['operations'], summary: 'Liveness: 200 while the process serves HTTP' },
    })
    .get(
      '/readyz',
      async ({ set }) => {
        const check = await deps.repos.check().catch((error: unknown) => ({ database: (error as Error).message, pendingMigrations: [] }))
        const { database, pendingMigrations: pending } = check
        const checks = {
          database,
          migrations: database !== 'ok' ? 'unknown' : pending.length ? `not applied: ${pending.join(', ')}` : 'ok',
          draining: deps.ops.draining,
        }
        const ready = checks.database === 'ok' && checks.migrations === 'ok' && !checks.draining
        set.status = ready ? 200 : 503
        return { status: ready ? ('ready' as const) : ('not ready' as const), checks }
      },
      {
        response: { 200: Readiness, 503: Readiness },
        detail: {
          tags: ['operations'],
          summary: 'Readiness: 200 when the database answers and every migration is applied; 503 otherwise and once draining (SIGTERM)',
        },
      },
    )
}
