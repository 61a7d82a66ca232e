import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../deps'
import { ok } from '../../plugins/envelope'
import { Password, Username } from '../users/credentials'
import { toLoginView } from '../users/view'
import { createRoot, setupState } from './create-root'

const SetupBody = t.Object({ username: Username, password: Password, confirmPassword: t.String({ maxLength: 64 }) })

/** First-run setup: without ROOT_PASSWORD the instance waits here until someone creates root. */
export function setupModule(deps: AppDeps) {
  return new Elysia({ name: 'setup' })
    .get('/api/setup', async () => ok(await setupState(deps)))
    .post('/api/setup', async ({ body }) => ok(toLoginView(await createRoot(deps, body)), 'root user created'), { body: SetupBody })
}
