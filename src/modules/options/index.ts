import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../deps'
import { ok } from '../../plugins/envelope'
import { sessionPlugin } from '../../plugins/session'
import { Role } from '../../db/repos/user-roles'
import { manageLogHook } from '../../metering/manage-log'
import { maskOption, redactSecretOption, sealOptionValue } from '../../options/secret-options'

const OptionUpdate = t.Object({
  key: t.String({ minLength: 1, maxLength: 100 }),
  value: t.Union([t.String({ maxLength: 100_000 }), t.Number(), t.Boolean(), t.Record(t.String(), t.Unknown())]),
})

/** Runtime settings, root only; the option store types and checks every value. Secrets are sealed and never shown. */
export function optionsModule(deps: AppDeps) {
  return new Elysia({ name: 'options' })
    .use(sessionPlugin(deps))
    .onAfterHandle(manageLogHook(deps, 'option', redactSecretOption)) // a secret's value redacted
    .get('/api/option/', () => ok(deps.options.all().map(maskOption)), { role: Role.root })
    .put(
      '/api/option/',
      async ({ body }) => {
        const sealed = await sealOptionValue(deps.secrets.crypto, body.key, body.value)
        // undefined: a secret's untouched mask came back, the stored one stays
        const value = sealed === undefined ? deps.options.get(body.key) : await deps.options.set(body.key, sealed)
        return ok(maskOption({ key: body.key, value }), `option ${body.key} saved`)
      },
      { role: Role.root, body: OptionUpdate },
    )
}
