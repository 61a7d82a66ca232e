import type { FieldRule } from '../../lib/option-form'

export type PaymentSectionId = 'topup' | 'epay' | 'stripe' | 'creem'

/** A section of sections.ts (declared here, so the two files do not import each other). */
interface PaymentSection {
  id: PaymentSectionId
  fields: readonly (FieldRule & { secret?: boolean })[]
}

/** Online top-up (docs/payments.md): what the wallet offers, then one section per provider. */
export const PAYMENT_SECTIONS: readonly PaymentSection[] = [
  {
    id: 'topup',
    fields: [
      { key: 'AmountOptions' },
      { key: 'AmountDiscount' },
      { key: 'TopupGroupRatio' },
      { key: 'CustomCallbackAddress', url: true },
      { key: 'TopUpPendingLimit', min: 0 },
      { key: 'TopUpOrderExpireMinutes', min: 30 },
    ],
  },
  { id: 'epay', fields: [{ key: 'PayAddress', url: true }, { key: 'EpayId' }, { key: 'EpayKey', secret: true }, { key: 'PayMethods' }, { key: 'Price' }, { key: 'MinTopUp', min: 1 }] },
  {
    id: 'stripe',
    fields: [{ key: 'StripeApiSecret', secret: true }, { key: 'StripeWebhookSecret', secret: true }, { key: 'StripeUnitPrice' }, { key: 'StripeMinTopUp', min: 1 }, { key: 'StripePromotionCodesEnabled' }],
  },
  { id: 'creem', fields: [{ key: 'CreemApiKey', secret: true }, { key: 'CreemWebhookSecret', secret: true }, { key: 'CreemTestMode' }, { key: 'CreemProducts' }] },
]

/** The address each provider calls back, to paste into its dashboard (EPay's goes with every order). */
export const CALLBACK_PATHS: Partial<Record<PaymentSectionId, string>> = {
  epay: '/api/user/epay/notify',
  stripe: '/api/stripe/webhook',
  creem: '/api/creem/webhook',
}
