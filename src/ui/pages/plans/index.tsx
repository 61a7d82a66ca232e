import { useState } from 'preact/hooks'
import { api } from '../../api/client'
import type { Plan } from '../../api/types'
import { ErrorAlert } from '../../components/alert'
import { Button } from '../../components/button'
import { DataTable, type Column } from '../../components/data-table'
import { EmptyState } from '../../components/empty-state'
import { PageHeader } from '../../components/page-header'
import { useQuotaFormat } from '../../components/quota'
import { useToast } from '../../components/toast'
import { useI18n, type MessageKey } from '../../i18n'
import { useApi } from '../../state/use-api'
import { useSubmit } from '../../state/use-submit'
import { PlanForm } from './plan-form'

type Row = Plan & { id: number }

/** Root: the subscription plans, created, edited, put on sale or disabled (never deleted: held plans point at them). */
export function PlansPage() {
  const { t } = useI18n()
  const toast = useToast()
  const formatQuota = useQuotaFormat()
  const list = useApi(() => api.get<{ plan: Plan }[]>('/api/subscription/admin/plans'), [])
  const [editing, setEditing] = useState<Plan | 'new'>()
  const toggling = useSubmit()
  const toggle = (plan: Plan) =>
    toggling.run(async () => {
      await api.patch(`/api/subscription/admin/plans/${plan.id}`, { enabled: !plan.enabled })
      list.reload()
    })
  const columns: Column<Row>[] = [
    { header: t('plans.column.title'), card: 'title', cell: (p) => p.title },
    { header: t('plans.column.price'), numeric: true, card: 'key', cell: (p) => `${p.price_amount.toFixed(2)} ${p.currency}` },
    { header: t('plans.column.duration'), cell: (p) => t('plans.duration', { value: p.duration_unit === 'custom' ? p.custom_seconds : p.duration_value, unit: t(`plans.unit.${p.duration_unit}` as MessageKey) }) },
    { header: t('plans.column.quota'), numeric: true, cell: (p) => (p.total_amount ? formatQuota(p.total_amount) : t('plans.noCap')) },
    { header: t('plans.column.reset'), cell: (p) => t(`plans.reset.${p.quota_reset_period}` as MessageKey) },
    { header: t('plans.column.state'), cell: (p) => (p.enabled ? t('plans.enabled') : t('plans.disabled')) },
    {
      header: t('common.actions'),
      class: 'col-actions',
      cell: (p) => (
        <>
          <Button variant="ghost" aria-label={t('plans.editLabel', { title: p.title })} onClick={() => setEditing(p)}>
            {t('plans.edit')}
          </Button>
          <Button variant="ghost" aria-label={t('plans.toggleLabel', { title: p.title })} busy={toggling.busy} onClick={() => void toggle(p)}>
            {p.enabled ? t('plans.disable') : t('plans.enable')}
          </Button>
        </>
      ),
    },
  ]
  return (
    <>
      <PageHeader title={t('plans.title')} lead={t('plans.lead')} actions={<Button variant="primary" onClick={() => setEditing('new')}>{t('plans.new')}</Button>} />
      <ErrorAlert error={list.error ?? toggling.failure} />
      <DataTable caption={t('plans.title')} columns={columns} rows={list.data?.map((p) => p.plan)} loading={list.loading} empty={<EmptyState message={t('plans.empty')} action={<Button variant="primary" onClick={() => setEditing('new')}>{t('plans.new')}</Button>} />} />
      {editing && (
        <PlanForm
          plan={editing === 'new' ? undefined : editing}
          onClose={() => setEditing(undefined)}
          onSaved={(plan) => {
            setEditing(undefined)
            toast(t('plans.saved', { title: plan.title }))
            list.reload()
          }}
        />
      )}
    </>
  )
}
