import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../deps'
import { ok } from '../../plugins/envelope'
import { clientIpOf, type IpSource } from '../../plugins/request-context'
import { Password, Username } from '../users/credentials'
import { toLoginView } from '../users/view'
import { createSetupCodeGate } from './code-gate'
import { createRoot, setupState } from './create-root'
import { isLocalRequest } from './setup-code'
import { applyUsage, SETUP_USAGES, usageOf } from './usage'

const SetupBody = t.Object({
  username: Username,
  password: Password,
  confirmPassword: t.String({ maxLength: 64 }),
  /** the one-time setup code from the server's log; needed unless the request comes from this machine */
  code: t.Optional(t.String({ maxLength: 64 })),
  /** what the instance is for (usage.ts): sets self-use mode and sign-ups */
  usage: t.Optional(t.UnionEnum(SETUP_USAGES)),
  /** new-api's setup field: true reads as usage "self", false as "public" */
  SelfUseModeEnabled: t.Optional(t.Boolean()),
})

/** First-run setup: without ROOT_PASSWORD the instance waits here until someone creates root. */
export function setupModule(deps: AppDeps) {
  const gate = createSetupCodeGate(deps.secrets.session)
  const local = (request: Request, server: IpSource) => isLocalRequest(server?.requestIP(request)?.address, request.headers)
  return new Elysia({ name: 'setup' })
    .get('/api/setup', async ({ request, server }) => {
      const state = await setupState(deps)
      return ok({ ...state, code_required: !state.status && !local(request, server) })
    })
    .post(
      '/api/setup',
      async ({ body, request, server }) => {
        const attempt = { local: local(request, server), address: clientIpOf(request, server, deps.config.trustProxy), given: body.code }
        const root = await createRoot(deps, body, () => gate.check(attempt))
        const usage = usageOf(body)
        if (usage) await applyUsage(deps.options, usage)
        return ok(toLoginView(root), 'root user created')
      },
      { body: SetupBody },
    )
}
