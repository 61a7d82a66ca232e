import { Elysia } from 'elysia'
import type { AppDeps } from './deps'
import { statusModule } from './modules/status'
import { tokensModule } from './modules/tokens'
import { createErrorRouter } from './plugins/error-routes'
import { requestContext } from './plugins/request-context'

/** Compose plugins and feature modules. Tests call this with a temp database. */
export function createApp(deps: AppDeps) {
  const errors = createErrorRouter()
  return new Elysia({ serve: { maxRequestBodySize: deps.config.maxBodyBytes + 1024 * 1024 } })
    .onError(({ code, error, path, request }) =>
      errors.render(path, code, error, request.headers.get('x-request-id') ?? undefined),
    )
    .use(requestContext(deps.config))
    .use(statusModule(deps))
    .use(tokensModule(deps))
}

export type App = ReturnType<typeof createApp>
