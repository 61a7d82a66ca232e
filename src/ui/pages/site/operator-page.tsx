import type { ComponentChildren } from 'preact'
import { api } from '../../api/client'
import { ErrorAlert } from '../../components/alert'
import { Markdown } from '../../components/markdown'
import { useI18n } from '../../i18n'
import { useApi } from '../../state/use-api'

/** A text that is one https URL alone: new-api shows such a home page or About in a frame. */
export function framedUrl(text: string): string | undefined {
  const trimmed = text.trim()
  return /^https:\/\/\S+$/.test(trimmed) ? trimmed : undefined
}

interface Props {
  /** new-api's route for the text: /api/about, /api/user-agreement … */
  path: string
  title: string
  /** shown when the operator wrote nothing */
  fallback: ComponentChildren
  /** a single https URL is shown in a frame (home page, About); legal texts are always Markdown */
  allowFrame?: boolean
}

/**
 * A page the operator writes. Markdown (and HTML in it) is sanitized; an https URL becomes a sandboxed
 * frame: scripts run in their own origin (never the console's, so no cookie or API access), no top-level
 * navigation; the link beside it opens the page itself.
 */
export function OperatorPage({ path, title, fallback, allowFrame }: Props) {
  const { t } = useI18n()
  const text = useApi(() => api.get<string>(path), [path])
  const url = allowFrame && text.data ? framedUrl(text.data) : undefined
  return (
    <article class="site-page" aria-busy={text.loading ? true : undefined}>
      <h1 class="site-title">{title}</h1>
      <ErrorAlert error={text.error} />
      {url ? (
        <>
          <iframe class="site-frame" src={url} title={title} sandbox="allow-scripts allow-popups allow-forms" referrerpolicy="no-referrer" loading="lazy" />
          <p class="muted">
            <a href={url} target="_blank" rel="noopener noreferrer">
              {t('site.openPage')}
            </a>
          </p>
        </>
      ) : text.data ? (
        <Markdown text={text.data} />
      ) : (
        !text.loading && !text.error && fallback
      )}
    </article>
  )
}
