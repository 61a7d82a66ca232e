import { useState } from 'preact/hooks'
import { api } from '../../api/client'
import { ErrorAlert, Notice } from '../../components/alert'
import { Button } from '../../components/button'
import { useConfirm } from '../../components/dialog'
import { TextField } from '../../components/field'
import { useQuotaFormat } from '../../components/quota'
import { useToast } from '../../components/toast'
import { useI18n } from '../../i18n'
import { formatNumber, quotaToDollars } from '../../lib/format'
import { checkTransfer } from '../../lib/wallet'
import { useSession } from '../../state/session'
import { useSubmit } from '../../state/use-submit'

interface Moved {
  quota_moved: number
  quota: number
  aff_quota: number
}

/** Invitation quota → balance, typed in US$: at least US$1 (QuotaPerUnit units), confirmed first because money moves. */
export function TransferForm({ available }: { available: number }) {
  const { t, locale } = useI18n()
  const { status, refresh } = useSession()
  const confirm = useConfirm()
  const toast = useToast()
  const format = useQuotaFormat()
  const perUnit = status?.quota_per_unit ?? 500_000
  const [amount, setAmount] = useState('')
  const [invalid, setInvalid] = useState<string>()
  const [done, setDone] = useState<string>()
  const { busy, failure, run } = useSubmit()
  const limits = { minimum: perUnit, available, perUnit }
  const typed = checkTransfer(amount, { minimum: 0, available: Number.MAX_SAFE_INTEGER, perUnit })

  const submit = async (event: Event) => {
    event.preventDefault()
    setDone(undefined)
    const checked = checkTransfer(amount, limits)
    if ('error' in checked) {
      setInvalid(t(`wallet.error.${checked.error}`, { minimum: format(perUnit), available: format(available) }))
      return
    }
    setInvalid(undefined)
    const ok = await confirm({ message: t('wallet.transfer.confirm', { amount: format(checked.quota) }), confirmLabel: t('wallet.transfer.confirmLabel'), danger: false })
    if (!ok) return
    await run(async () => {
      const moved = await api.post<Moved>('/api/user/aff_transfer', { quota: checked.quota })
      setAmount('')
      setDone(t('wallet.transfer.done', { amount: format(moved.quota_moved), balance: format(moved.quota) }))
      toast(t('wallet.transfer.toast'))
      await refresh()
    })
  }

  const hint = [
    t('wallet.transfer.hint', { minimum: format(perUnit), available: format(available) }),
    'quota' in typed && typed.quota > 0 ? t('wallet.transfer.preview', { units: formatNumber(typed.quota, locale) }) : '',
  ].join(' ')

  return (
    <form class="form wallet-transfer" onSubmit={submit} noValidate aria-labelledby="wallet-transfer-title">
      <h3 id="wallet-transfer-title">{t('wallet.transfer.title')}</h3>
      {available < perUnit && <p class="muted">{t('wallet.transfer.notEnough', { minimum: format(perUnit) })}</p>}
      <div class="wallet-amount">
        <TextField label={t('wallet.transfer.amount')} value={amount} onValue={setAmount} inputMode="decimal" autocomplete="off" required hint={hint.trim()} error={invalid} />
        <Button variant="ghost" disabled={available < perUnit} onClick={() => setAmount(String(quotaToDollars(available, perUnit)))}>
          {t('wallet.transfer.all')}
        </Button>
      </div>
      <ErrorAlert error={failure} />
      {done && <Notice>{done}</Notice>}
      <div>
        <Button type="submit" variant="primary" busy={busy}>
          {t('wallet.transfer.submit')}
        </Button>
      </div>
    </form>
  )
}
