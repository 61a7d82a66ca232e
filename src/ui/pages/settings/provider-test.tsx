import { useState } from 'preact/hooks'
import { api } from '../../api/client'
import { ErrorAlert } from '../../components/alert'
import { Button } from '../../components/button'
import { useI18n } from '../../i18n'
import { useSubmit } from '../../state/use-submit'

interface ProviderTest {
  supported: boolean
  ok: boolean
  message: string
  code?: 'provider_refused' | 'provider_status' | 'provider_unreachable'
  status?: number
}

/** A failed test in the reader's words, by its code; the provider's own (English) text stays on hover. */
const FAILURES = {
  provider_refused: 'plans.providerTest.refused',
  provider_status: 'plans.providerTest.status',
  provider_unreachable: 'plans.providerTest.unreachable',
} as const

/** A payment provider's "test" (POST /api/payment/test): one authenticated read with the saved keys; EPay has none. */
export function ProviderTestButton({ provider }: { provider: 'stripe' | 'creem' | 'epay' }) {
  const { t } = useI18n()
  const [result, setResult] = useState<ProviderTest>()
  const { busy, failure, run } = useSubmit()
  if (provider === 'epay') return <p class="muted">{t('plans.providerTest.none')}</p>
  const test = () =>
    run(async () => {
      setResult(await api.post<ProviderTest>('/api/payment/test', { provider }))
    })
  return (
    <div class="topup-row">
      <Button busy={busy} onClick={() => void test()}>
        {t('plans.providerTest.button')}
      </Button>
      {result && (
        <span role="status" title={result.ok ? undefined : result.message}>
          {result.ok ? t('plans.providerTest.ok') : t('plans.providerTest.failed', { reason: result.code ? t(FAILURES[result.code], { status: String(result.status ?? '') }) : result.message })}
        </span>
      )}
      <ErrorAlert error={failure} />
    </div>
  )
}
