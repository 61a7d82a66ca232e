import { Link, useLocation } from 'wouter-preact'
import { Icon } from '../components/icons'
import { useI18n } from '../i18n'
import { PAGES } from '../routes'
import { useUser } from '../state/session'

/** The `<nav>` landmark: links named after the pages, admin pages only for admins. */
export function SideNav({ open, onNavigate }: { open: boolean; onNavigate(): void }) {
  const { t } = useI18n()
  const user = useUser()
  const [location] = useLocation()
  const visible = PAGES.filter((page) => user.role >= page.role)
  const own = visible.filter((page) => page.role < 10)
  const admin = visible.filter((page) => page.role >= 10)
  const link = (page: (typeof PAGES)[number]) => (
    <li key={page.path}>
      <Link href={page.path} class="nav-link" aria-current={location.startsWith(page.path) ? 'page' : undefined} onClick={onNavigate}>
        <Icon name={page.icon} />
        <span>{t(page.label)}</span>
      </Link>
    </li>
  )
  return (
    <nav id="side-nav" class={open ? 'side-nav open' : 'side-nav'} aria-label={t('nav.label')}>
      <ul>{own.map(link)}</ul>
      {admin.length > 0 && (
        <>
          <p class="nav-heading">{t('nav.admin')}</p>
          <ul>{admin.map(link)}</ul>
        </>
      )}
    </nav>
  )
}
