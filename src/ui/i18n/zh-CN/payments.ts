import type { payments as en } from '../en/payments'

export const payments: Record<keyof typeof en, string> = {
  'payments.topup.title': '在线充值',
  'payments.topup.presets': '预设金额',
  'payments.topup.presetDiscount': '{amount}（减 {off}%）',
  'payments.topup.amount': '金额（美元额度）',
  'payments.topup.method': '支付方式',
  'payments.topup.quote': '支付 {money} {currency}，获得 {amount} 美元额度。',
  'payments.topup.pay': '支付',
  'payments.topup.product': '{name}：{price} {currency}',
  'payments.topup.buy': '购买',
}
