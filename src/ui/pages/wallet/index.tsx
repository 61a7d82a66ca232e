import { PageHeader } from '../../components/page-header'
import { useI18n } from '../../i18n'
import { useQuotaFormat } from '../../components/quota'
import { formatNumber } from '../../lib/format'
import { useSession, useUser } from '../../state/session'
import { Invitation } from './invitation'
import { MyOrders } from './my-orders'
import { RedeemForm } from './redeem-form'
import { TopUpForm } from './top-up-form'
import { PlansCard } from './plans-card'

/** Balance at a glance, online top-up, redemption codes, the invitation link with its earnings, and my orders. */
export function WalletPage() {
  const { t } = useI18n()
  const user = useUser()
  return (
    <>
      <PageHeader title={t('nav.wallet')} lead={t('wallet.lead')} />
      <section class="cards" aria-label={t('nav.wallet')}>
        <MoneyCard label={t('wallet.card.balance')} quota={user.quota} />
        <MoneyCard label={t('wallet.card.used')} quota={user.used_quota} />
        <CountCard label={t('wallet.card.requests')} count={user.request_count} hint={t('wallet.card.requestsHint')} />
      </section>
      <div class="wallet-grid">
        <TopUpForm />
        <PlansCard />
        <RedeemForm />
        <Invitation />
      </div>
      <MyOrders />
    </>
  )
}

/** A figure in the instance's money format; in US$, its quota units under it (what the API and CLI count in). */
function MoneyCard({ label, quota }: { label: string; quota: number }) {
  const { t, locale } = useI18n()
  const { status } = useSession()
  const format = useQuotaFormat()
  return (
    <div class="card">
      <div class="figure-label">{label}</div>
      <div class="figure">{format(quota)}</div>
      {(status?.display_in_currency ?? true) && <div class="muted wallet-units">{t('wallet.card.units', { quota: formatNumber(quota, locale) })}</div>}
    </div>
  )
}

function CountCard({ label, count, hint }: { label: string; count: number; hint: string }) {
  const { locale } = useI18n()
  return (
    <div class="card">
      <div class="figure-label">{label}</div>
      <div class="figure">{formatNumber(count, locale)}</div>
      <div class="muted wallet-units">{hint}</div>
    </div>
  )
}
