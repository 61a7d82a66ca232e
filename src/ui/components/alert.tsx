import { ApiError } from '../api/client'
import { useI18n, type I18n } from '../i18n'
import { isFactorCode } from '../lib/factor-errors'
import { mailErrorKey } from '../lib/mail-errors'

/** Refusals the console words itself from the server's stable code (the server's English message otherwise). */
function fromCode(error: ApiError, t: I18n['t']): string | undefined {
  const { code, retry_after: seconds = 1 } = error.facts
  const wait = seconds < 60 ? t('common.wait.seconds', { count: seconds }) : t('common.wait.minutes', { count: Math.ceil(seconds / 60) })
  if (code === 'login_rate_limited') return t('common.error.loginRateLimited', { wait })
  if (code === 'signup_rate_limited') return t('common.error.signupRateLimited', { wait })
  if (code === 'busy') return t('common.error.busy', { wait })
  if (code === 'username_confusable') return t('common.error.usernameConfusable')
  if (code && isFactorCode(code)) return t(`twofa.error.${code}`)
  if (code === 'mail_send_failed') return t('mail.error.sendFailed', { reason: error.message.replace(/^the mail could not be sent: /, '') })
  const mailKey = mailErrorKey(code)
  if (mailKey) return t(mailKey, { wait })
  return undefined
}

/** The words for an error from the server (or the network). */
export function errorText(error: unknown, t: I18n['t']): string {
  if (!(error instanceof ApiError)) return String(error instanceof Error ? error.message : error)
  if (error.status === 0) return t('common.error.network')
  return fromCode(error, t) ?? error.message
}

/** An error from the server (or the network), announced where it happened. Renders nothing without one. */
export function ErrorAlert({ error }: { error: unknown }) {
  const { t } = useI18n()
  if (!error) return null
  const message = errorText(error, t)
  return (
    <div class="alert alert-error" role="alert">
      {message}
    </div>
  )
}

export function Notice({ children }: { children: preact.ComponentChildren }) {
  return <div class="alert alert-info">{children}</div>
}
