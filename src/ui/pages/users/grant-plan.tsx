import { useState } from 'preact/hooks'
import { api } from '../../api/client'
import type { HeldPlan, Plan } from '../../api/types'
import { ErrorAlert } from '../../components/alert'
import { Button } from '../../components/button'
import { SelectField } from '../../components/field'
import { useToast } from '../../components/toast'
import { useI18n } from '../../i18n'
import { useApi } from '../../state/use-api'
import { useSubmit } from '../../state/use-submit'

/** In the user drawer: grant one of the plans (enabled or not) to this user, without payment. */
export function GrantPlan({ userId }: { userId: number }) {
  const { t } = useI18n()
  const toast = useToast()
  const plans = useApi(() => api.get<{ plan: Plan }[]>('/api/subscription/admin/plans'), [])
  const [chosen, setChosen] = useState('')
  const { busy, failure, run } = useSubmit()
  const list = plans.data?.map((p) => p.plan) ?? []
  if (list.length === 0) return null
  const planId = chosen || String(list[0]!.id)
  const grant = () =>
    run(async () => {
      const held = await api.post<HeldPlan>(`/api/subscription/admin/users/${userId}/subscriptions`, { plan_id: Number(planId) })
      toast(t('plans.grant.done', { title: held.plan?.title ?? '' }))
    })
  return (
    <section aria-labelledby={`grant-plan-${userId}`}>
      <h3 id={`grant-plan-${userId}`}>{t('plans.grant.title')}</h3>
      <div class="topup-row">
        <SelectField label={t('plans.grant.plan')} value={planId} options={list.map((p) => ({ value: String(p.id), label: p.title }))} onValue={setChosen} />
        <Button busy={busy} onClick={() => void grant()}>
          {t('plans.grant.button')}
        </Button>
      </div>
      <ErrorAlert error={failure} />
    </section>
  )
}
