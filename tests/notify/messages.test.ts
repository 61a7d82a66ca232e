import { expect, test } from 'bun:test'
import { notifyMail, webhookPayload } from '../../src/notify/messages'

/** A low-balance message reads its amounts in the instance's money format; the webhook's values stay numbers. */
const low = { kind: 'quota_low' as const, quota: 250_000, threshold: 500_000 }

test('DisplayInCurrencyEnabled on: both languages say US$, never raw quota', () => {
  const mail = notifyMail('a@example.com', low, 'Tollgate', { inCurrency: true, quotaPerUnit: 500_000 })
  expect(mail.text).toContain('Your balance is US$0.50, below your warning threshold of US$1.00.')
  expect(mail.text).toContain('你的余额为 US$0.50，已低于预警阈值 US$1.00。')
  expect(mail.text).not.toContain('250000')
  const hook = webhookPayload(low, 'Tollgate', 1, { inCurrency: true, quotaPerUnit: 500_000 })
  expect(hook.content).toContain('US$0.50')
  expect(hook.values).toEqual([250_000, 500_000])
})

test('DisplayInCurrencyEnabled off: quota units, named in each language', () => {
  const mail = notifyMail('a@example.com', low, 'Tollgate', { inCurrency: false, quotaPerUnit: 500_000 })
  expect(mail.text).toContain('Your balance is 250000 quota, below your warning threshold of 500000 quota.')
  expect(mail.text).toContain('你的余额为 250000 额度，已低于预警阈值 500000 额度。')
})
