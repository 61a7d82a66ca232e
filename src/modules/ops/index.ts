import { Elysia } from 'elysia'
import type { AppDeps } from '../../deps'
import { healthModule } from './health'
import { metricsModule } from './metrics'
import { openapiModule } from './openapi'

/** The operations endpoints: /healthz, /readyz, /metrics, /api/openapi.json and /api/docs. */
export function opsModule(deps: AppDeps) {
  return new Elysia({ name: 'ops' }).use(healthModule(deps)).use(metricsModule(deps)).use(openapiModule())
}
