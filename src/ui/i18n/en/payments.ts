export const payments = {
  'payments.topup.title': 'Top up online',
  'payments.topup.presets': 'Preset amounts',
  'payments.topup.presetDiscount': '{amount} (−{off}%)',
  'payments.topup.amount': 'Amount (US$ of quota)',
  'payments.topup.method': 'Payment method',
  'payments.topup.quote': 'You pay {money} {currency}, you get US${amount} of quota.',
  'payments.topup.pay': 'Pay',
  'payments.topup.product': '{name}: {price} {currency}',
  'payments.topup.buy': 'Buy',
} as const
