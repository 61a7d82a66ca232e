import { useState } from 'preact/hooks'
import { useI18n } from '../i18n'
import { useSubmit } from '../state/use-submit'
import { ErrorAlert } from './alert'
import { Button } from './button'
import { TextField } from './field'

/**
 * WeChat through new-api's WeChat server: the official account's QR code, and the code the account replies (the
 * user scans it, follows the account and sends it "验证码"). `onCode` signs in or binds with it.
 */
export function WeChatCodeForm({ qrcode, submitLabel, onCode }: { qrcode: string; submitLabel: string; onCode(code: string): Promise<void> }) {
  const { t } = useI18n()
  const [code, setCode] = useState('')
  const { busy, failure, run } = useSubmit()
  const submit = (event: Event) => {
    event.preventDefault()
    void run(() => onCode(code.trim()))
  }
  return (
    <form class="wechat-code" aria-label={t('messenger.wechat.form')} onSubmit={submit}>
      {qrcode && <img src={qrcode} alt={t('messenger.wechat.qrAlt')} width={160} height={160} />}
      <p class="muted">{t('messenger.wechat.lead')}</p>
      <TextField label={t('messenger.wechat.code')} value={code} onValue={setCode} required maxLength={64} autoComplete="one-time-code" />
      <ErrorAlert error={failure} />
      <Button type="submit" variant="primary" busy={busy} disabled={code.trim() === ''}>
        {submitLabel}
      </Button>
    </form>
  )
}
