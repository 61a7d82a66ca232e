import { ApiError } from '../api/client'
import { useI18n, type I18n } from '../i18n'
import { errorWords } from '../lib/error-words'

/** The words for an error from the server (or the network), in the reader's language (lib/error-words.ts). */
export function errorText(error: unknown, t: I18n['t'], locale: I18n['locale'] = 'en'): string {
  if (!(error instanceof ApiError)) return String(error instanceof Error ? error.message : error)
  if (error.status === 0) return t('common.error.network')
  return errorWords(error.status, error.message, error.facts, locale, t)
}

/** An error from the server (or the network), announced where it happened. Renders nothing without one. */
export function ErrorAlert({ error }: { error: unknown }) {
  const { t, locale } = useI18n()
  if (!error) return null
  const message = errorText(error, t, locale)
  return (
    <div class="alert alert-error" role="alert">
      {message}
    </div>
  )
}

export function Notice({ children }: { children: preact.ComponentChildren }) {
  return <div class="alert alert-info">{children}</div>
}
