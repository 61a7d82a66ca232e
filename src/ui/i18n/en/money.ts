/** Amounts typed in US$ (one money format, #30): what a field says when the text is not an amount. */
export const money = {
  'plans.form.amount': 'An amount in US$, 0 or more (e.g. 10 or 2.50).',
} as const
