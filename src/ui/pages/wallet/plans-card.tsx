import { api } from '../../api/client'
import type { HeldPlan, Plan } from '../../api/types'
import { ErrorAlert } from '../../components/alert'
import { Button } from '../../components/button'
import { SelectField } from '../../components/field'
import { useQuotaFormat } from '../../components/quota'
import { useI18n, type MessageKey } from '../../i18n'
import { formatTime } from '../../lib/format'
import { useApi } from '../../state/use-api'
import { useSubmit } from '../../state/use-submit'
import { postForm } from './post-form'

interface Self {
  billing_preference: string
  subscriptions: HeldPlan[]
}
interface PayInfo {
  enable_online_topup: boolean
  enable_stripe_topup: boolean
  enable_creem_topup: boolean
  pay_methods: { name: string; type: string; provider: string }[]
}
const PREFERENCES = ['subscription_first', 'wallet_first', 'subscription_only', 'wallet_only'] as const

/** The wallet's plans: those held (the period's use, next reset, end), what pays first, and the plans on sale with a button per way to pay. */
export function PlansCard() {
  const { t, locale } = useI18n()
  const format = useQuotaFormat()
  const self = useApi(() => api.get<Self>('/api/subscription/self'), [])
  const offer = useApi(() => api.get<{ plan: Plan }[]>('/api/subscription/plans'), [])
  const info = useApi(() => api.get<PayInfo>('/api/user/topup/info'), [])
  const { busy, failure, run } = useSubmit()
  const held = self.data?.subscriptions ?? []
  const plans = offer.data?.map((p) => p.plan) ?? []
  if (!self.data || (held.length === 0 && plans.length === 0)) return null
  const setPreference = (value: string) =>
    run(async () => {
      await api.put('/api/subscription/self/preference', { billing_preference: value })
      self.reload()
    })
  const buy = (plan: Plan, via: { provider: string; type: string }) =>
    run(async () => {
      if (via.provider === 'stripe') return window.location.assign((await api.post<{ pay_link: string }>('/api/subscription/stripe/pay', { plan_id: plan.id })).pay_link)
      if (via.provider === 'creem') return window.location.assign((await api.post<{ checkout_url: string }>('/api/subscription/creem/pay', { plan_id: plan.id })).checkout_url)
      const { url, params } = await api.post<{ url: string; params: Record<string, string> }>('/api/subscription/epay/pay', { plan_id: plan.id, payment_method: via.type })
      postForm(url, params)
    })
  const ways = (plan: Plan) => [
    ...(info.data?.enable_online_topup ? info.data.pay_methods.filter((m) => m.provider !== 'stripe') : []),
    ...(info.data?.enable_stripe_topup && plan.currency === 'USD' ? [{ name: 'Stripe', type: 'stripe', provider: 'stripe' }] : []),
    ...(info.data?.enable_creem_topup && plan.creem_product_id ? [{ name: 'Creem', type: 'creem', provider: 'creem' }] : []),
  ]
  return (
    <section class="card" aria-labelledby="wallet-plans">
      <h2 id="wallet-plans">{t('plans.wallet.title')}</h2>
      <h3>{t('plans.wallet.active')}</h3>
      {held.length === 0 ? (
        <p class="muted">{t('plans.wallet.none')}</p>
      ) : (
        <ul class="plan-list">
          {held.map(({ subscription: s, plan }) => (
            <li key={s.id}>
              <strong>{plan?.title}</strong>
              <div>{s.amount_total ? t('plans.wallet.used', { used: format(s.amount_used), total: format(s.amount_total) }) : t('plans.wallet.usedNoCap', { used: format(s.amount_used) })}</div>
              {s.next_reset_time > 0 && <div class="muted">{t('plans.wallet.nextReset', { time: formatTime(s.next_reset_time, locale) })}</div>}
              <div class="muted">{t('plans.wallet.ends', { time: formatTime(s.end_time, locale) })}</div>
            </li>
          ))}
        </ul>
      )}
      {held.length > 0 && (
        <SelectField
          label={t('plans.wallet.preference')}
          value={self.data.billing_preference}
          options={PREFERENCES.map((p) => ({ value: p, label: t(`plans.pref.${p}` as MessageKey) }))}
          onValue={(value) => void setPreference(value)}
        />
      )}
      {plans.length > 0 && <h3>{t('plans.wallet.offer')}</h3>}
      <ul class="plan-list">
        {plans.map((plan) => (
          <li key={plan.id}>
            <strong>{plan.title}</strong> — {plan.price_amount.toFixed(2)} {plan.currency}
            {plan.subtitle && <div class="muted">{plan.subtitle}</div>}
            <div class="topup-row">
              {ways(plan).map((via) => (
                <Button key={via.type} busy={busy} aria-label={t('plans.wallet.buyWith', { title: plan.title, method: via.name })} onClick={() => void buy(plan, via)}>
                  {via.name}
                </Button>
              ))}
            </div>
          </li>
        ))}
      </ul>
      <ErrorAlert error={failure} />
    </section>
  )
}
