import { useState } from 'preact/hooks'
import { api } from '../../api/client'
import { ErrorAlert, Notice } from '../../components/alert'
import { Button } from '../../components/button'
import { SelectField, TextField } from '../../components/field'
import { useI18n } from '../../i18n'
import { formatDollars } from '../../lib/format'
import { useApi } from '../../state/use-api'
import { useSubmit } from '../../state/use-submit'
import { postForm } from './post-form'

interface TopUpInfo {
  enable_online_topup: boolean
  enable_stripe_topup: boolean
  enable_creem_topup: boolean
  pay_methods: { name: string; type: string; provider: string }[]
  amount_options: number[]
  discount: Record<string, number>
  creem_products: { productId: string; name: string; price: number; currency: string; quota: number }[]
}
interface Quote {
  money: string
  currency: string
  quota: number
}

/** Online top-up: a preset or an amount, a method, what you pay and what you get, then the provider's page. */
export function TopUpForm() {
  const { t, locale } = useI18n()
  // the presets are US$ of quota, shown as money like every other amount
  const info = useApi(() => api.get<TopUpInfo>('/api/user/topup/info'), [])
  const [amount, setAmount] = useState('10')
  const [method, setMethod] = useState('')
  const [quote, setQuote] = useState<Quote>()
  // the quote has its own state: a quote asked on the amount's blur must not disable Pay under the click that blurred it
  const quoting = useSubmit()
  const { busy, failure, run } = useSubmit()
  const data = info.data
  if (!data || (!data.enable_online_topup && !data.enable_stripe_topup && !data.enable_creem_topup)) return null
  const chosen = data.pay_methods.find((m) => m.type === method) ?? data.pay_methods[0]
  const stripe = chosen?.provider === 'stripe'

  const ask = (value: string, via = chosen) =>
    quoting.run(async () => {
      // the shown quote stays until the new one replaces it: removing it would move Pay from under a click
      if (!via || !/^\d+$/.test(value)) return setQuote(undefined)
      setQuote(await api.post<Quote>(via.provider === 'stripe' ? '/api/user/stripe/amount' : '/api/user/amount', { amount: Number(value) }))
    })
  const pay = (event: Event) => {
    event.preventDefault()
    void run(async () => {
      if (!chosen) return
      if (stripe) {
        const { pay_link } = await api.post<{ pay_link: string }>('/api/user/stripe/pay', { amount: Number(amount), payment_method: 'stripe' })
        window.location.assign(pay_link)
        return
      }
      const { url, params } = await api.post<{ url: string; params: Record<string, string> }>('/api/user/pay', { amount: Number(amount), payment_method: chosen.type })
      postForm(url, params)
    })
  }
  const buy = (productId: string) =>
    run(async () => {
      const { checkout_url } = await api.post<{ checkout_url: string }>('/api/user/creem/pay', { product_id: productId, payment_method: 'creem' })
      window.location.assign(checkout_url)
    })

  return (
    <section class="card" aria-labelledby="wallet-topup-title">
      <h2 id="wallet-topup-title">{t('payments.topup.title')}</h2>
      {data.pay_methods.length > 0 && (
        <form class="form" onSubmit={pay} noValidate>
          <div class="topup-row" role="group" aria-label={t('payments.topup.presets')}>
            {data.amount_options.map((preset) => (
              <Button key={preset} onClick={() => (setAmount(String(preset)), void ask(String(preset)))} aria-pressed={amount === String(preset)}>
                {data.discount[String(preset)] ? t('payments.topup.presetDiscount', { amount: formatDollars(preset, locale), off: Math.round((1 - data.discount[String(preset)]!) * 100) }) : formatDollars(preset, locale)}
              </Button>
            ))}
          </div>
          <TextField label={t('payments.topup.amount')} value={amount} onValue={(v) => (setAmount(v), setQuote(undefined))} onBlur={() => void ask(amount)} inputMode="numeric" />
          <SelectField
            label={t('payments.topup.method')}
            value={chosen?.type ?? ''}
            options={data.pay_methods.map((m) => ({ value: m.type, label: m.name }))}
            onValue={(v) => (setMethod(v), void ask(amount, data.pay_methods.find((m) => m.type === v)))}
          />
          {quote && <Notice>{t('payments.topup.quote', { money: quote.money, currency: quote.currency, amount })}</Notice>}
          <ErrorAlert error={failure ?? quoting.failure} />
          <div>
            <Button type="submit" variant="primary" busy={busy}>
              {t('payments.topup.pay')}
            </Button>
          </div>
        </form>
      )}
      {data.creem_products.map((product) => (
        <div key={product.productId} class="topup-row">
          <span>{t('payments.topup.product', { name: product.name, price: product.price, currency: product.currency })}</span>
          <Button onClick={() => void buy(product.productId)} busy={busy}>
            {t('payments.topup.buy')}
          </Button>
        </div>
      ))}
    </section>
  )
}
