import { useState } from 'preact/hooks'
import { api } from '../../api/client'
import { ErrorAlert, Notice } from '../../components/alert'
import { Button } from '../../components/button'
import { TextField } from '../../components/field'
import { useQuotaFormat } from '../../components/quota'
import { useToast } from '../../components/toast'
import { useI18n } from '../../i18n'
import { checkCode } from '../../lib/wallet'
import { useSession } from '../../state/session'
import { useSubmit } from '../../state/use-submit'

/** Redeem a code: explicit, no optimism; says what was credited once the server has, then refreshes the user. */
export function RedeemForm() {
  const { t } = useI18n()
  const { refresh } = useSession()
  const toast = useToast()
  const format = useQuotaFormat()
  const [code, setCode] = useState('')
  const [invalid, setInvalid] = useState<string>()
  const [done, setDone] = useState<string>()
  const { busy, failure, run } = useSubmit()

  const submit = async (event: Event) => {
    event.preventDefault()
    const problem = checkCode(code)
    setInvalid(problem && t(`wallet.error.${problem}`))
    setDone(undefined)
    if (problem) return
    await run(async () => {
      const result = await api.post<{ quota: number; balance: number }>('/api/user/topup', { key: code.trim() })
      setCode('')
      setDone(t('wallet.redeem.done', { quota: format(result.quota), balance: format(result.balance) }))
      toast(t('wallet.redeem.toast'))
      await refresh()
    })
  }

  return (
    <section class="card" aria-labelledby="wallet-redeem-title">
      <h2 id="wallet-redeem-title">{t('wallet.redeem.title')}</h2>
      <p class="muted">{t('wallet.redeem.lead')}</p>
      <form class="form" onSubmit={submit} noValidate>
        <TextField label={t('wallet.redeem.code')} value={code} onValue={setCode} autocomplete="off" spellcheck={false} required error={invalid} />
        <ErrorAlert error={failure} />
        {done && <Notice>{done}</Notice>}
        <div>
          <Button type="submit" variant="primary" busy={busy}>
            {t('wallet.redeem.submit')}
          </Button>
        </div>
      </form>
    </section>
  )
}
