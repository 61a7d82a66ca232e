import { Link, useLocation } from 'wouter-preact'
import { Brand } from '../components/brand'
import { Markdown } from '../components/markdown'
import { useI18n } from '../i18n'
import { useSession } from '../state/session'
import { Preferences } from './top-bar'

/** The public pages' top: logo and name (home), Models when the price list is public, About, then sign in or the console. */
export function SiteHeader() {
  const { t } = useI18n()
  const { status, user } = useSession()
  const [location] = useLocation()
  const current = (path: string) => (location === path ? 'page' : undefined)
  return (
    <header class="public-top">
      <Brand href="/" />
      <nav class="site-nav" aria-label={t('site.nav')}>
        {(status?.public_pricing_enabled || user) && (
          <Link href={user ? '/models' : '/pricing'} aria-current={current(user ? '/models' : '/pricing')}>
            {t('site.models')}
          </Link>
        )}
        <Link href="/about" aria-current={current('/about')}>
          {t('site.about')}
        </Link>
      </nav>
      <div class="public-top-end">
        <Preferences />
        {user ? (
          <Link href="/dashboard" class="btn btn-secondary">
            {t('site.console')}
          </Link>
        ) : (
          location !== '/login' && (
            <Link href="/login" class="btn btn-primary">
              {t('site.signIn')}
            </Link>
          )
        )}
      </div>
    </header>
  )
}

/** The operator's footer (Markdown, sanitized) and the legal pages that exist. */
export function SiteFooter() {
  const { t } = useI18n()
  const { status } = useSession()
  if (!status) return null
  const legal = status.user_agreement_enabled || status.privacy_policy_enabled
  if (!status.footer_html && !legal) return null
  return (
    <footer class="site-footer">
      {status.footer_html && <Markdown text={status.footer_html} class="site-footer-text" />}
      {legal && (
        <nav class="site-legal" aria-label={t('site.legal')}>
          {status.user_agreement_enabled && <Link href="/user-agreement">{t('site.userAgreement')}</Link>}
          {status.privacy_policy_enabled && <Link href="/privacy-policy">{t('site.privacyPolicy')}</Link>}
        </nav>
      )}
    </footer>
  )
}
