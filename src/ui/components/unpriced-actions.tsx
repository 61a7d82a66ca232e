import { Link } from 'wouter-preact'
import { api } from '../api/client'
import { Role } from '../api/types'
import { useI18n } from '../i18n'
import { useUser } from '../state/session'
import { useSubmit } from '../state/use-submit'
import { ErrorAlert } from './alert'
import { Button } from './button'

/** Root may turn self-use mode on from here: unpriced models then answer for free. */
const enableSelfUse = () => api.put('/api/option/', { key: 'SelfUseModeEnabled', value: true })

/** "Set prices" (a link to Pricing) and, for root, "Use self-use mode" (one click): the two ways out of "no price". */
export function UnpricedActions({ onSelfUse }: { onSelfUse(): void }) {
  const { t } = useI18n()
  const { role } = useUser()
  const { busy, failure, run } = useSubmit()
  return (
    <>
      <div class="action-row">
        <Link href="/pricing" class="btn btn-secondary">
          {t('firstRun.unpriced.prices')}
        </Link>
        {role >= Role.root && (
          <Button busy={busy} onClick={() => run(async () => (await enableSelfUse(), onSelfUse()))}>
            {t('firstRun.unpriced.selfUse')}
          </Button>
        )}
      </div>
      <ErrorAlert error={failure} />
    </>
  )
}
