import { useLocation } from 'wouter-preact'
import { Icon } from '../components/icons'
import { LOCALES, useI18n, type Locale } from '../i18n'
import { useSession } from '../state/session'
import { useTheme, type ThemeChoice } from '../state/theme'

/** Language, theme and the user menu: on every page, logged in or not. */
export function Preferences() {
  const { t, locale, setLocale } = useI18n()
  const [theme, setTheme] = useTheme()
  return (
    <div class="preferences">
      <label class="compact-select">
        <span class="visually-hidden">{t('common.language')}</span>
        <select aria-label={t('common.language')} value={locale} onChange={(event) => setLocale(event.currentTarget.value as Locale)}>
          {LOCALES.map((option) => (
            <option key={option.id} value={option.id} lang={option.id}>
              {option.label}
            </option>
          ))}
        </select>
      </label>
      <label class="compact-select">
        <span class="visually-hidden">{t('common.theme')}</span>
        <select aria-label={t('common.theme')} value={theme} onChange={(event) => setTheme(event.currentTarget.value as ThemeChoice)}>
          <option value="system">{t('common.theme.system')}</option>
          <option value="light">{t('common.theme.light')}</option>
          <option value="dark">{t('common.theme.dark')}</option>
        </select>
      </label>
    </div>
  )
}

export function TopBar({ onMenu, menuOpen }: { onMenu(): void; menuOpen: boolean }) {
  const { t } = useI18n()
  const { status, user, logout } = useSession()
  const [, navigate] = useLocation()
  return (
    <header class="top-bar">
      <button type="button" class="btn btn-ghost menu-button" aria-expanded={menuOpen} aria-controls="side-nav" onClick={onMenu}>
        <Icon name="menu" />
        <span class="visually-hidden">{t('common.menu')}</span>
      </button>
      <a class="brand" href="/dashboard">
        {status?.system_name || 'Tollgate'}
      </a>
      <div class="top-bar-end">
        <Preferences />
        {user && (
          <>
            <span class="user-chip" title={t(`nav.role.${user.role}` as 'nav.role.1')}>
              {user.display_name || user.username}
            </span>
            <button
              type="button"
              class="btn btn-ghost"
              onClick={async () => {
                await logout()
                navigate('/login')
              }}
            >
              <Icon name="logout" />
              <span class="hide-narrow">{t('common.logout')}</span>
            </button>
          </>
        )}
      </div>
    </header>
  )
}
