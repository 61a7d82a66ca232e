import { useLocation } from 'wouter-preact'
import { Icon } from '../components/icons'
import { MenuButton } from '../components/menu'
import { LOCALES, useI18n } from '../i18n'
import { useSession } from '../state/session'
import { useTheme, type ThemeChoice } from '../state/theme'

const THEME_ICONS: Record<ThemeChoice, string> = { system: 'monitor', light: 'sun', dark: 'moon' }

/** Language and theme as two compact menu buttons: on every page, logged in or not. */
export function Preferences() {
  const { t, locale, setLocale } = useI18n()
  const [theme, setTheme] = useTheme()
  const language = LOCALES.find((option) => option.id === locale) ?? LOCALES[0]
  const themeWord = (choice: ThemeChoice) => t(`common.theme.${choice}`)
  return (
    <div class="preferences">
      <MenuButton
        label={t('shell.language.current', { name: language?.label ?? locale })}
        menuLabel={t('common.language')}
        buttonClass="btn btn-ghost compact-menu"
        actions={LOCALES.map((option) => ({ label: option.label, lang: option.id, checked: option.id === locale, onSelect: () => setLocale(option.id) }))}
      >
        <Icon name="globe" />
        <span class="compact-menu-value">{language?.short}</span>
      </MenuButton>
      <MenuButton
        label={t('shell.theme.current', { name: themeWord(theme) })}
        menuLabel={t('common.theme')}
        buttonClass="btn btn-ghost compact-menu"
        actions={(['system', 'light', 'dark'] as const).map((choice) => ({ label: themeWord(choice), checked: choice === theme, onSelect: () => setTheme(choice) }))}
      >
        <Icon name={THEME_ICONS[theme]} />
      </MenuButton>
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
