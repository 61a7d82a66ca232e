export const money = {
  'plans.form.amount': '请输入不小于 0 的美元金额（如 10 或 2.50）。',
} as const
