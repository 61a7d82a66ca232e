import { useState } from 'preact/hooks'
import { api } from '../../api/client'
import type { Plan } from '../../api/types'
import { ErrorAlert } from '../../components/alert'
import { Button } from '../../components/button'
import { DollarField } from '../../components/dollar-field'
import { Modal } from '../../components/dialog'
import { CheckboxField, SelectField, TextField } from '../../components/field'
import { useI18n, type MessageKey } from '../../i18n'
import { dollarsToQuota, quotaToDollars } from '../../lib/format'
import { parseAmount } from '../../lib/validate'
import { useSession } from '../../state/session'
import { useSubmit } from '../../state/use-submit'

const UNITS = ['month', 'year', 'day', 'hour', 'custom'] as const
const RESETS = ['never', 'daily', 'weekly', 'monthly', 'custom'] as const
const whole = (text: string) => /^\d+$/.test(text.trim())

/** Root's plan editor: a new plan, or `plan` changed (new-api's fields; the server checks the combinations). */
export function PlanForm({ plan, onClose, onSaved }: { plan?: Plan; onClose(): void; onSaved(plan: Plan): void }) {
  const { t } = useI18n()
  const perUnit = useSession().status?.quota_per_unit ?? 500_000
  const [f, setF] = useState({
    title: plan?.title ?? '',
    subtitle: plan?.subtitle ?? '',
    price: String(plan?.price_amount ?? 10),
    currency: plan?.currency ?? 'USD',
    unit: plan?.duration_unit ?? 'month',
    value: String(plan?.duration_value ?? 1),
    customSeconds: String(plan?.custom_seconds ?? 0),
    // typed in US$ like every other amount; the API's total_amount is quota units
    total: String(quotaToDollars(plan?.total_amount ?? 5_000_000, perUnit)),
    reset: plan?.quota_reset_period ?? 'monthly',
    resetSeconds: String(plan?.quota_reset_custom_seconds ?? 0),
    models: plan?.models ?? '',
    groups: plan?.groups ?? '',
    upgradeGroup: plan?.upgrade_group ?? '',
    limit: String(plan?.max_purchase_per_user ?? 0),
    creem: plan?.creem_product_id ?? '',
    enabled: plan?.enabled ?? true,
  })
  const [bad, setBad] = useState<string>()
  const { busy, failure, run } = useSubmit()
  const set = (name: keyof typeof f) => (value: string | boolean) => (setF((p) => ({ ...p, [name]: value })), setBad(undefined))
  const submit = (event: Event) => {
    event.preventDefault()
    const numbers = ['value', 'customSeconds', 'resetSeconds', 'limit'] as const
    const wrong = numbers.find((n) => !whole(f[n]))
    if (wrong) return setBad(wrong)
    const total = parseAmount(f.total)
    if (total === undefined) return setBad('total')
    void run(async () => {
      const body = {
        title: f.title,
        subtitle: f.subtitle,
        price_amount: Number(f.price),
        currency: f.currency,
        duration_unit: f.unit,
        duration_value: Number(f.value),
        custom_seconds: Number(f.customSeconds),
        total_amount: dollarsToQuota(total, perUnit),
        quota_reset_period: f.reset,
        quota_reset_custom_seconds: Number(f.resetSeconds),
        models: f.models,
        groups: f.groups,
        upgrade_group: f.upgradeGroup,
        max_purchase_per_user: Number(f.limit),
        creem_product_id: f.creem,
        enabled: f.enabled,
      }
      onSaved(plan ? await api.put<Plan>(`/api/subscription/admin/plans/${plan.id}`, body) : await api.post<Plan>('/api/subscription/admin/plans', body))
    })
  }
  const numberError = (name: string) => (bad === name ? t('plans.form.number') : undefined)
  return (
    <Modal title={plan ? t('plans.form.edit', { title: plan.title }) : t('plans.form.create')} onClose={onClose}>
      <form class="form" onSubmit={submit} noValidate>
        <TextField label={t('plans.form.title')} value={f.title} maxLength={128} required onValue={set('title')} />
        <TextField label={t('plans.form.subtitle')} value={f.subtitle} maxLength={255} onValue={set('subtitle')} />
        <TextField label={t('plans.form.price')} value={f.price} inputMode="decimal" onValue={set('price')} />
        <SelectField label={t('plans.form.currency')} value={f.currency} options={[{ value: 'USD', label: 'USD' }, { value: 'CNY', label: 'CNY' }]} onValue={set('currency')} />
        <SelectField label={t('plans.form.unit')} value={f.unit} options={UNITS.map((u) => ({ value: u, label: t(`plans.unit.${u}` as MessageKey) }))} onValue={set('unit')} />
        {f.unit === 'custom' ? (
          <TextField label={t('plans.form.customSeconds')} value={f.customSeconds} inputMode="numeric" error={numberError('customSeconds')} onValue={set('customSeconds')} />
        ) : (
          <TextField label={t('plans.form.value')} value={f.value} inputMode="numeric" error={numberError('value')} onValue={set('value')} />
        )}
        <DollarField label={t('plans.form.total')} value={f.total} error={bad === 'total' ? t('plans.form.amount') : undefined} onValue={set('total')} />
        <SelectField label={t('plans.form.reset')} value={f.reset} options={RESETS.map((r) => ({ value: r, label: t(`plans.reset.${r}` as MessageKey) }))} onValue={set('reset')} />
        {f.reset === 'custom' && <TextField label={t('plans.form.resetSeconds')} value={f.resetSeconds} inputMode="numeric" error={numberError('resetSeconds')} onValue={set('resetSeconds')} />}
        <TextField label={t('plans.form.models')} hint={t('plans.form.modelsHint')} value={f.models} maxLength={4000} onValue={set('models')} />
        <TextField label={t('plans.form.groups')} hint={t('plans.form.groupsHint')} value={f.groups} maxLength={4000} onValue={set('groups')} />
        <TextField label={t('plans.form.upgradeGroup')} hint={t('plans.form.upgradeGroupHint')} value={f.upgradeGroup} maxLength={64} onValue={set('upgradeGroup')} />
        <TextField label={t('plans.form.limit')} value={f.limit} inputMode="numeric" error={numberError('limit')} onValue={set('limit')} />
        <TextField label={t('plans.form.creem')} value={f.creem} maxLength={128} onValue={set('creem')} />
        <CheckboxField label={t('plans.form.enabled')} checked={f.enabled} onChecked={set('enabled')} />
        <ErrorAlert error={failure} />
        <div class="dialog-actions">
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button type="submit" variant="primary" busy={busy}>
            {t('plans.form.save')}
          </Button>
        </div>
      </form>
    </Modal>
  )
}
