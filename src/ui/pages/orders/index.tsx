import { useState } from 'preact/hooks'
import { api, type Page } from '../../api/client'
import type { TopUpOrder } from '../../api/types'
import { ErrorAlert } from '../../components/alert'
import { Button } from '../../components/button'
import { DataTable, type Column } from '../../components/data-table'
import { EmptyState } from '../../components/empty-state'
import { PageHeader } from '../../components/page-header'
import { Pager } from '../../components/pager'
import { useQuotaFormat } from '../../components/quota'
import { useToast } from '../../components/toast'
import { useI18n } from '../../i18n'
import { useApi } from '../../state/use-api'
import { useOrderColumns } from './cells'
import { CompleteOrderModal } from './complete-modal'
import { NO_FILTERS, OrderFilterForm, orderQuery, type OrderFilters } from './filters'

/** An order an admin may complete by hand: pending, or lapsed on our clock (`expire_time` kept); not paid, failed or closed by the provider. */
const completable = (order: TopUpOrder) => order.status === 'pending' || (order.status === 'expired' && order.expire_time > 0)

/** Admins: every online top-up, filtered and paged; a pending (or lapsed) one completed by hand with a reason. */
export function OrdersPage() {
  const { t } = useI18n()
  const toast = useToast()
  const formatQuota = useQuotaFormat()
  const [filters, setFilters] = useState<OrderFilters>(NO_FILTERS)
  const [formKey, setFormKey] = useState(0)
  const [page, setPage] = useState(1)
  const [pageSize, setPageSize] = useState(20)
  const [completing, setCompleting] = useState<TopUpOrder>()
  const list = useApi(() => api.get<Page<TopUpOrder>>('/api/user/topup', { ...orderQuery(filters), p: page, page_size: pageSize }), [filters, page, pageSize])
  const filtered = JSON.stringify(filters) !== JSON.stringify(NO_FILTERS)
  const clear = () => {
    setFilters(NO_FILTERS)
    setFormKey((k) => k + 1)
    setPage(1)
  }
  const shared = useOrderColumns()
  const columns: Column<TopUpOrder>[] = [
    shared[0]!,
    { header: t('orders.column.user'), cell: (order) => t('orders.userRef', { id: order.user_id }) },
    ...shared.slice(1),
    {
      header: t('common.actions'),
      class: 'col-actions',
      cell: (order) =>
        completable(order) ? (
          <Button variant="ghost" aria-label={t('orders.complete.label', { tradeNo: order.trade_no })} onClick={() => setCompleting(order)}>
            {t('orders.complete.button')}
          </Button>
        ) : null,
    },
  ]
  return (
    <>
      <PageHeader title={t('orders.title')} lead={t('orders.lead')} />
      <OrderFilterForm
        key={formKey}
        applied={filters}
        onApply={(next) => {
          setFilters(next)
          setPage(1)
        }}
      />
      <ErrorAlert error={list.error} />
      <DataTable
        caption={t('orders.title')}
        columns={columns}
        rows={list.data?.items}
        loading={list.loading}
        empty={
          filtered ? (
            <EmptyState message={t('orders.empty.filtered')} action={<Button onClick={clear}>{t('orders.empty.clear')}</Button>} />
          ) : (
            <EmptyState message={t('orders.empty.none')} />
          )
        }
      />
      {list.data && list.data.total > 0 && (
        <Pager page={page} pageSize={pageSize} total={list.data.total} onPage={setPage} onPageSize={(size) => (setPageSize(size), setPage(1))} />
      )}
      {completing && (
        <CompleteOrderModal
          order={completing}
          onClose={() => setCompleting(undefined)}
          onDone={(order) => {
            setCompleting(undefined)
            toast(t('orders.complete.done', { tradeNo: order.trade_no, quota: formatQuota(order.quota) }))
            list.reload()
          }}
        />
      )}
    </>
  )
}
