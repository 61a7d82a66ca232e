import { useState } from 'preact/hooks'
import { api } from '../../api/client'
import type { Redemption } from '../../api/types'
import { ErrorAlert } from '../../components/alert'
import { Button } from '../../components/button'
import { DataTable, type Column } from '../../components/data-table'
import { useConfirm } from '../../components/dialog'
import { EmptyState } from '../../components/empty-state'
import { PageHeader } from '../../components/page-header'
import { Pager } from '../../components/pager'
import { useQuotaFormat } from '../../components/quota'
import { StatusDot, type Tone } from '../../components/status-dot'
import { useToast } from '../../components/toast'
import { useI18n } from '../../i18n'
import { redemptionState, shortHint, type RedemptionState } from '../../lib/redemption'
import { SearchBox, usePagedSearch } from '../users/paged-search'
import { CodesModal } from './codes-modal'
import { CreateCodesDrawer, type CreatedCodes } from './create-drawer'
import { CodeRowMenu } from './row-actions'
import { Time } from './time'

const TONES: Record<RedemptionState, Tone> = { unused: 'success', used: 'muted', disabled: 'danger', expired: 'warning' }

/** Admins hand out quota as codes: create them in batches (shown once), disable, delete, clean up. */
export function RedemptionsPage() {
  const { t } = useI18n()
  const formatQuota = useQuotaFormat()
  const confirm = useConfirm()
  const toast = useToast()
  const search = usePagedSearch<Redemption>('/api/redemption/')
  const [creating, setCreating] = useState(false)
  const [created, setCreated] = useState<CreatedCodes>()
  const [actionError, setActionError] = useState<unknown>()
  const [cleaning, setCleaning] = useState(false)
  const now = Math.floor(Date.now() / 1000)
  const changed = () => {
    setActionError(undefined)
    search.reload()
  }

  const deleteInvalid = async () => {
    if (!(await confirm({ message: t('redemptions.confirm.invalid'), confirmLabel: t('redemptions.invalid.button') }))) return
    setCleaning(true)
    try {
      const count = await api.delete<number>('/api/redemption/invalid')
      toast(t('redemptions.toast.invalid', { count }))
      changed()
    } catch (error) {
      setActionError(error)
    } finally {
      setCleaning(false)
    }
  }

  const columns: Column<Redemption>[] = [
    { header: t('common.name'), cell: (code) => <span class="redemptions-name">{code.name}</span> },
    { header: t('redemptions.column.code'), cell: (code) => <code>{shortHint(code.key)}</code> },
    {
      header: t('common.status'),
      cell: (code) => {
        const state = redemptionState(code, now)
        return <StatusDot tone={TONES[state]} label={t(`redemptions.status.${state}`)} />
      },
    },
    { header: t('common.quota'), cell: (code) => formatQuota(code.quota), numeric: true, card: 'key' },
    { header: t('redemptions.column.created'), cell: (code) => <Time seconds={code.created_time} empty="—" /> },
    { header: t('redemptions.column.expires'), cell: (code) => <Time seconds={code.expired_time} empty={t('common.never')} /> },
    {
      header: t('redemptions.column.redeemed'),
      cell: (code) =>
        code.used_user_id ? (
          <>
            {code.used_username || t('redemptions.userRef', { id: code.used_user_id })} · <Time seconds={code.redeemed_time} empty="—" />
          </>
        ) : (
          <span class="muted">—</span>
        ),
    },
    {
      header: t('common.actions'),
      class: 'col-actions',
      cell: (code) => <CodeRowMenu code={code} state={redemptionState(code, now)} onChanged={changed} onError={setActionError} />,
    },
  ]

  return (
    <>
      <PageHeader
        title={t('nav.redemptions')}
        lead={t('redemptions.lead')}
        actions={
          <>
            <Button variant="danger" busy={cleaning} onClick={deleteInvalid}>
              {t('redemptions.invalid.button')}
            </Button>
            <Button variant="primary" onClick={() => setCreating(true)}>
              {t('redemptions.create.button')}
            </Button>
          </>
        }
      />
      <SearchBox search={search} placeholder={t('redemptions.search.placeholder')} />
      <ErrorAlert error={search.error ?? actionError} />
      <div class="redemptions-list">
        <DataTable
          caption={t('nav.redemptions')}
          columns={columns}
          rows={search.data?.items}
          loading={search.loading}
          empty={
            search.keyword ? (
              <EmptyState message={t('redemptions.empty.search', { keyword: search.keyword })} action={<Button onClick={search.clear}>{t('redemptions.empty.clear')}</Button>} />
            ) : (
              <EmptyState message={t('redemptions.empty.none')} action={<Button variant="primary" onClick={() => setCreating(true)}>{t('redemptions.create.button')}</Button>} />
            )
          }
        />
      </div>
      {search.data && search.data.total > 0 && (
        <Pager page={search.page} pageSize={search.pageSize} total={search.data.total} onPage={search.setPage} onPageSize={search.setPageSize} />
      )}
      {creating && (
        <CreateCodesDrawer
          onClose={() => setCreating(false)}
          onCreated={(codes) => {
            setCreating(false)
            setCreated(codes)
            changed()
          }}
        />
      )}
      {created && <CodesModal created={created} onClose={() => setCreated(undefined)} />}
    </>
  )
}
