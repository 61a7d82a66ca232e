import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../deps'
import { ok } from '../../plugins/envelope'
import { sessionPlugin } from '../../plugins/session'
import { Role } from '../../db/repos/user-roles'
import { manageLogHook } from '../../metering/manage-log'
import { createSecretBox } from '../../crypto/secret-box'
import { isSecretOption, maskedSecret, sealSecret } from '../../options/secret-options'

const OptionUpdate = t.Object({
  key: t.String({ minLength: 1, maxLength: 100 }),
  value: t.Union([t.String({ maxLength: 100_000 }), t.Number(), t.Boolean(), t.Record(t.String(), t.Unknown())]),
})

/** Runtime settings, root only; the option store types and checks every value. Secret options are sealed and shown masked. */
export function optionsModule(deps: AppDeps) {
  const box = createSecretBox(deps.secrets.crypto)
  const shown = (key: string, value: unknown) => (isSecretOption(key) ? maskedSecret(value) : value)
  return new Elysia({ name: 'options' })
    .use(sessionPlugin(deps))
    .onAfterHandle(manageLogHook(deps, 'option'))
    .get('/api/option/', () => ok(deps.options.all().map((option) => ({ ...option, value: shown(option.key, option.value) }))), { role: Role.root })
    .put(
      '/api/option/',
      async ({ body }) => {
        const value = isSecretOption(body.key) ? await sealSecret(box, body.value) : body.value
        const saved = value === undefined ? deps.options.get(body.key) : await deps.options.set(body.key, value)
        return ok({ key: body.key, value: shown(body.key, saved) }, `option ${body.key} saved`)
      },
      { role: Role.root, body: OptionUpdate },
    )
}
