import { ApiError } from '../api/client'
import { useI18n } from '../i18n'

/** An error from the server (or the network), announced where it happened. Renders nothing without one. */
export function ErrorAlert({ error }: { error: unknown }) {
  const { t } = useI18n()
  if (!error) return null
  const message = error instanceof ApiError ? (error.status === 0 ? t('common.error.network') : error.message) : String(error instanceof Error ? error.message : error)
  return (
    <div class="alert alert-error" role="alert">
      {message}
    </div>
  )
}

export function Notice({ children }: { children: preact.ComponentChildren }) {
  return <div class="alert alert-info">{children}</div>
}
