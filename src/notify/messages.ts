import type { MailMessage } from '../outbound/smtp'
import type { WebhookPayload } from './webhook'

/** What happened, with what a message about it says. */
export type NotifyEvent =
  | { kind: 'quota_low'; quota: number; threshold: number }
  | { kind: 'channel_disabled'; channelId: number; name: string; reason: string }
  | { kind: 'channel_balance_low'; channelId: number; name: string; balance: number; threshold: number }
  | { kind: 'test' }

type NotifyKind = NotifyEvent['kind']

/** The webhook's `type`: new-api's names where it has the event (quota_exceed, channel_update). */
const WIRE_TYPE: Record<NotifyKind, string> = {
  quota_low: 'quota_exceed',
  channel_disabled: 'channel_update',
  channel_balance_low: 'channel_balance_low',
  test: 'test',
}

interface Text {
  title: string
  /** with `{{value}}` where each of `values` goes, in order (new-api's content format) */
  content: string
  /** the event's figures as numbers and names (the webhook's `values`) */
  values: (string | number)[]
  /** the same as a person reads them (amounts in the instance's money format); `values` when absent */
  shown?: string[]
}

/** How an amount of quota reads: US$ when `DisplayInCurrencyEnabled` is on (at `QuotaPerUnit`), else quota units. */
interface MoneyFormat {
  inCurrency: boolean
  quotaPerUnit: number
}

function amount(quota: number, money: MoneyFormat, zh: boolean): string {
  if (money.inCurrency && money.quotaPerUnit > 0) return `US$${(quota / money.quotaPerUnit).toFixed(2)}`
  return zh ? `${quota} 额度` : `${quota} quota`
}

/** English and Chinese: a mail carries both (the gateway does not know a reader's language when the event fires). */
function texts(event: NotifyEvent, system: string, money: MoneyFormat): { en: Text; zh: Text } {
  switch (event.kind) {
    case 'quota_low':
      return {
        en: {
          title: `${system}: your balance is low`,
          content: 'Your balance is {{value}}, below your warning threshold of {{value}}. Top up to keep your requests served.',
          values: [event.quota, event.threshold],
          shown: [amount(event.quota, money, false), amount(event.threshold, money, false)],
        },
        zh: {
          title: `${system}：余额不足`,
          content: '你的余额为 {{value}}，已低于预警阈值 {{value}}。请及时充值，以免请求被拒绝。',
          values: [event.quota, event.threshold],
          shown: [amount(event.quota, money, true), amount(event.threshold, money, true)],
        },
      }
    case 'channel_disabled':
      return {
        en: { title: `${system}: channel "${event.name}" was disabled`, content: 'Channel #{{value}} ({{value}}) was disabled automatically: {{value}}', values: [event.channelId, event.name, event.reason] },
        zh: { title: `${system}：渠道「${event.name}」已被自动禁用`, content: '渠道 #{{value}}（{{value}}）已被自动禁用：{{value}}', values: [event.channelId, event.name, event.reason] },
      }
    case 'channel_balance_low':
      return {
        en: { title: `${system}: channel "${event.name}" balance is low`, content: 'Channel #{{value}} ({{value}}) has a balance of US${{value}}, below US${{value}}.', values: [event.channelId, event.name, event.balance, event.threshold] },
        zh: { title: `${system}：渠道「${event.name}」余额不足`, content: '渠道 #{{value}}（{{value}}）的余额为 US${{value}}，低于 US${{value}}。', values: [event.channelId, event.name, event.balance, event.threshold] },
      }
    case 'test':
      return {
        en: { title: `${system}: test notification`, content: 'This is a test notification from {{value}}: your notification settings work.', values: [system] },
        zh: { title: `${system}：测试通知`, content: '这是来自 {{value}} 的测试通知：你的通知设置可以正常工作。', values: [system] },
      }
  }
}

const fill = (text: Text) => (text.shown ?? text.values).reduce<string>((content, value) => content.replace('{{value}}', String(value)), text.content)
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

export function webhookPayload(event: NotifyEvent, system: string, nowSeconds: number, money: MoneyFormat): WebhookPayload {
  const { en } = texts(event, system, money)
  return { type: WIRE_TYPE[event.kind], title: en.title, content: fill(en), values: en.values, timestamp: nowSeconds }
}

export function notifyMail(to: string, event: NotifyEvent, system: string, money: MoneyFormat): MailMessage {
  const { en, zh } = texts(event, system, money)
  const lines = [fill(en), fill(zh)]
  return {
    to,
    subject: `${en.title} / ${zh.title.replace(`${system}：`, '')}`,
    text: lines.join('\n\n') + '\n',
    html: `<!doctype html><html><body style="font-family:sans-serif;font-size:14px">${lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('')}</body></html>`,
  }
}
