import { Link } from 'wouter-preact'
import { api } from '../../api/client'
import { Markdown } from '../../components/markdown'
import { useI18n } from '../../i18n'
import { useSession } from '../../state/session'
import { useApi } from '../../state/use-api'
import { framedUrl } from './operator-page'

/** The front door: the notice, then the operator's home page (Markdown or a framed URL) or a built-in welcome. */
export function HomePage() {
  const { t } = useI18n()
  const { status, user } = useSession()
  const notice = useApi(() => api.get<string>('/api/notice'), [])
  const home = useApi(() => api.get<string>('/api/home_page_content'), [])
  const name = status?.system_name || 'Tollgate'
  const url = home.data ? framedUrl(home.data) : undefined
  return (
    <div class="site-home">
      {notice.data && (
        <aside class="notice" aria-label={t('site.notice')}>
          <Markdown text={notice.data} />
        </aside>
      )}
      {url ? (
        <iframe class="site-frame site-frame-home" src={url} title={name} sandbox="allow-scripts allow-popups allow-forms" referrerpolicy="no-referrer" />
      ) : home.data ? (
        <article class="site-page">
          <Markdown text={home.data} />
        </article>
      ) : (
        !home.loading && (
          <section class="hero">
            <h1>{name}</h1>
            <p class="lead">{t('site.home.lead')}</p>
            <div class="hero-actions">
              {user ? (
                <Link href="/dashboard" class="btn btn-primary">
                  {t('site.console')}
                </Link>
              ) : (
                <Link href="/login" class="btn btn-primary">
                  {t('site.signIn')}
                </Link>
              )}
              {status?.public_pricing_enabled && (
                <Link href="/pricing" class="btn btn-secondary">
                  {t('site.models')}
                </Link>
              )}
            </div>
          </section>
        )
      )}
    </div>
  )
}
