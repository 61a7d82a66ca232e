import { api } from '../../api/client'
import { ErrorAlert } from '../../components/alert'
import { CopyButton } from '../../components/copy-button'
import { useQuotaFormat } from '../../components/quota'
import { useI18n } from '../../i18n'
import { formatNumber } from '../../lib/format'
import { invitationLink } from '../../lib/wallet'
import { useApi } from '../../state/use-api'
import { useSession, useUser } from '../../state/session'
import { TransferForm } from './transfer-form'

/** The user's invitation link (code created on first visit), what it has earned, and the transfer form. */
export function Invitation() {
  const { t, locale } = useI18n()
  const user = useUser()
  const { status } = useSession()
  const format = useQuotaFormat()
  const code = useApi(() => api.get<string>('/api/user/aff'), [])
  const link = code.data ? invitationLink(code.data, status?.server_address, location.origin) : undefined

  return (
    <section class="card" aria-labelledby="wallet-invite-title">
      <h2 id="wallet-invite-title">{t('wallet.invite.title')}</h2>
      <p class="muted">{t('wallet.invite.lead')}</p>
      <div class="field">
        <span class="wallet-link-label" id="wallet-invite-link">
          {t('wallet.invite.link')}
        </span>
        <div class="key-box">
          {link ? <code aria-labelledby="wallet-invite-link">{link}</code> : <span class="skeleton wallet-link-skeleton" aria-hidden="true" />}
          {link && <CopyButton text={link} name={t('wallet.invite.copy')} />}
        </div>
        <ErrorAlert error={code.error} />
      </div>
      <dl class="wallet-stats">
        <div>
          <dt>{t('wallet.invite.count')}</dt>
          <dd class="num">{formatNumber(user.aff_count, locale)}</dd>
        </div>
        <div>
          <dt>{t('wallet.invite.quota')}</dt>
          <dd class="num">{format(user.aff_quota)}</dd>
        </div>
        <div>
          <dt>{t('wallet.invite.history')}</dt>
          <dd class="num">{format(user.aff_history_quota)}</dd>
        </div>
      </dl>
      <TransferForm available={user.aff_quota} />
    </section>
  )
}
