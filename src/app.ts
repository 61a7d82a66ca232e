import { Elysia } from 'elysia'
import type { AppDeps } from './deps'
import { authModule } from './modules/auth'
import { channelsModule } from './modules/channels'
import { optionsModule } from './modules/options'
import { setupModule } from './modules/setup'
import { statusModule } from './modules/status'
import { usersModule } from './modules/users'
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
    .use(setupModule(deps))
    .use(authModule(deps))
    .use(usersModule(deps))
    .use(optionsModule(deps))
    .use(tokensModule(deps))
    .use(channelsModule(deps))
}

export type App = ReturnType<typeof createApp>
