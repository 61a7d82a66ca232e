import { PageHeader } from '../../components/page-header'
import { useI18n, type MessageKey } from '../../i18n'
import { formatDate, formatTime, timeZoneName } from '../../lib/format'
import { useUser } from '../../state/session'
import { AccessToken } from './access-token'
import { BindingsCard } from './bindings-card'
import { EmailCard } from './email-card'
import { NameForm } from './name-form'
import { NotifyCard } from './notify-card'
import { PasswordForm } from './password-form'
import { PasskeysCard } from './passkeys-card'
import { SessionCard } from './session-card'
import { TwoFactorCard } from './two-factor-card'

/** The user's own account: read-only facts, display name, password, management access token, logging out. */
export function ProfilePage() {
  const { t, locale } = useI18n()
  const user = useUser()
  const roleKey = ROLE_NAMES[user.role]
  const role = roleKey ? t(roleKey) : String(user.role)
  return (
    <>
      <PageHeader title={t('nav.profile')} lead={t('profile.lead')} />
      <div class="profile-grid">
        <section class="card" aria-labelledby="profile-account-title">
          <h2 id="profile-account-title">{t('profile.account.title')}</h2>
          <dl class="profile-facts">
            <dt>{t('profile.account.username')}</dt>
            <dd>{user.username}</dd>
            <dt>{t('profile.account.role')}</dt>
            <dd>{role}</dd>
            <dt>{t('profile.account.group')}</dt>
            <dd>
              <span class="chip">{user.group}</span>
            </dd>
            <dt>{t('profile.account.created')}</dt>
            <dd>
              <time dateTime={new Date(user.created_time * 1000).toISOString()} title={`${formatTime(user.created_time, locale)} (${timeZoneName()})`}>
                {formatDate(user.created_time, locale)}
              </time>
            </dd>
          </dl>
          <NameForm />
        </section>
        <PasswordForm />
        <EmailCard />
        <BindingsCard />
        <AccessToken />
        <TwoFactorCard />
        <PasskeysCard />
        <NotifyCard />
        <SessionCard />
      </div>
    </>
  )
}

const ROLE_NAMES: Record<number, MessageKey> = { 1: 'profile.role.1', 10: 'profile.role.10', 100: 'profile.role.100' }
