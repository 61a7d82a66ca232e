import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../deps'
import { ok } from '../../plugins/envelope'
import { sessionPlugin } from '../../plugins/session'
import { Role } from '../../db/repos/user-roles'
import { manageLogHook } from '../../metering/manage-log'
import { maskSecrets, sealOption, SECRET_SET } from '../../options/secret-options'

const OptionUpdate = t.Object({
  key: t.String({ minLength: 1, maxLength: 100 }),
  value: t.Union([t.String({ maxLength: 100_000 }), t.Number(), t.Boolean(), t.Record(t.String(), t.Unknown())]),
})

/** Runtime settings, root only; the option store types and checks every value. */
export function optionsModule(deps: AppDeps) {
  return new Elysia({ name: 'options' })
    .use(sessionPlugin(deps))
    .onAfterHandle(manageLogHook(deps, 'option'))
    .get('/api/option/', () => ok(maskSecrets(deps.options.all())), { role: Role.root })
    .put(
      '/api/option/',
      async ({ body }) => {
        // a secret is stored sealed and answered masked; its mask sent back unchanged keeps it
        const sealed = await sealOption(deps.secrets.crypto, body.key, body.value)
        if (sealed === undefined) return ok({ key: body.key, value: SECRET_SET }, `option ${body.key} kept`)
        const value = await deps.options.set(body.key, sealed)
        return ok({ key: body.key, value: sealed === body.value ? value : SECRET_SET }, `option ${body.key} saved`)
      },
      { role: Role.root, body: OptionUpdate },
    )
}
