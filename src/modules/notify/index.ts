import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../deps'
import { Role } from '../../db/repos/user-roles'
import { GatewayError, RateLimitError } from '../../errors'
import { waitInWords } from '../../coord/limit-errors'
import { manageLogHook } from '../../metering/manage-log'
import { saveSettings, settingsView } from '../../notify/settings'
import { ok } from '../../plugins/envelope'
import { sessionPlugin } from '../../plugins/session'

/** new-api's PUT /api/user/setting body (its other fields are accepted and ignored; Bark and Gotify refused). */
const SettingBody = t.Object(
  {
    notify_type: t.String({ maxLength: 16 }),
    quota_warning_threshold: t.Optional(t.Number({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER })),
    webhook_url: t.Optional(t.String({ maxLength: 2048 })),
    webhook_secret: t.Optional(t.String({ maxLength: 256 })),
    notification_email: t.Optional(t.String({ maxLength: 254 })),
  },
  { additionalProperties: true },
)

/** The webhook secret never reaches the manage log (its field name is not one the hook knows). */
const redactSecret = (body: unknown): unknown =>
  body && typeof body === 'object' && 'webhook_secret' in body ? { ...body, webhook_secret: '[redacted]' } : body

/** Test notifications one user may send per hour. */
const TESTS_PER_HOUR = 5

/** A user's notification settings (new-api's notify fields) and the Test button (docs/notifications.md). */
export function notifyModule(deps: AppDeps) {
  const saveDeps = { repo: deps.repos.notifySettings, outbound: deps.notifier.webhookOutbound, cryptoSecret: deps.secrets.crypto }
  return new Elysia({ name: 'notify' })
    .use(sessionPlugin(deps))
    .onAfterHandle(manageLogHook(deps, 'notify', redactSecret))
    .get('/api/user/setting', async ({ user }) => ok(settingsView(await deps.repos.notifySettings.get(user.id))), { role: Role.user })
    .put(
      '/api/user/setting',
      async ({ user, body }) => {
        const saved = await saveSettings(saveDeps, user.id, body)
        deps.notifier.forgetThreshold(user.id)
        return ok(settingsView(saved), 'notification settings saved')
      },
      { role: Role.user, body: SettingBody },
    )
    .post(
      '/api/user/setting/test',
      async ({ user }) => {
        const hit = await deps.coord.windowHit([`notify:limit:test:u:${user.id}`], TESTS_PER_HOUR, 3600)
        if (!hit.ok) throw new RateLimitError(`too many test notifications: try again in ${waitInWords(hit.retryAfter)}`, hit.retryAfter, 'notify_rate_limited')
        const settings = await deps.repos.notifySettings.get(user.id)
        try {
          await deps.notifier.sendTest({ userId: user.id, email: user.email, settings })
        } catch (error) {
          if (error instanceof GatewayError) throw error
          throw new GatewayError(502, 'notify_failed', `the test notification was not delivered: ${(error as Error).message}`, undefined, undefined, { code: 'notify_failed' })
        }
        return ok(null, settings?.notifyType === 'webhook' ? 'test notification delivered to the webhook' : 'test notification sent by e-mail')
      },
      { role: Role.user },
    )
}
