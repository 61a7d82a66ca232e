import { centsText } from './epay'
import { discounts, presetAmounts, quoteTopUp } from './quote'
import { creemSettings, epaySettings, stripeSettings } from './settings'
import type { PaymentDeps } from './types'

/** What the wallet needs to offer a top-up (new-api's GET /api/user/topup/info fields): no secret is in it. */
export async function topUpInfo(deps: Pick<PaymentDeps, 'options' | 'box'>, group: string) {
  const [epay, stripe, creem] = await Promise.all([epaySettings(deps), stripeSettings(deps), creemSettings(deps)])
  const payMethods = [...(epay?.methods ?? []).map((m) => ({ ...m, provider: 'epay' }))]
  if (stripe) payMethods.push({ name: 'Stripe', type: 'stripe', color: '#635BFF', provider: 'stripe' })
  return {
    enable_online_topup: epay !== undefined,
    enable_stripe_topup: stripe !== undefined,
    enable_creem_topup: creem !== undefined,
    pay_methods: payMethods,
    min_topup: deps.options.get<number>('MinTopUp'),
    stripe_min_topup: deps.options.get<number>('StripeMinTopUp'),
    amount_options: presetAmounts(deps),
    discount: discounts(deps),
    price: deps.options.get<number>('Price'),
    stripe_unit_price: deps.options.get<number>('StripeUnitPrice'),
    topup_group_ratio: deps.options.get<Record<string, number>>('TopupGroupRatio')[group] ?? 1,
    quota_per_unit: deps.options.get<number>('QuotaPerUnit'),
    creem_products: (creem?.products ?? []).map((p) => ({ productId: p.productId, name: p.name, price: p.price, currency: p.currency, quota: p.quota })),
  }
}

/** What `amount` costs through a provider: "you pay X, you get Y". */
export function amountQuote(deps: Pick<PaymentDeps, 'options'>, provider: 'epay' | 'stripe', amount: number, group: string) {
  const quote = quoteTopUp(deps, provider, amount, group)
  return { amount, money: centsText(quote.moneyCents), money_cents: quote.moneyCents, currency: quote.currency, quota: quote.quota, discount: quote.discount }
}
