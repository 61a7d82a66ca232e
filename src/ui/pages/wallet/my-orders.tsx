import { useState } from 'preact/hooks'
import { api, type Page } from '../../api/client'
import type { TopUpOrder } from '../../api/types'
import { ErrorAlert } from '../../components/alert'
import { DataTable } from '../../components/data-table'
import { EmptyState } from '../../components/empty-state'
import { Pager } from '../../components/pager'
import { useI18n } from '../../i18n'
import { useApi } from '../../state/use-api'
import { useOrderColumns } from '../orders/cells'

/** The user's online top-ups, newest first. */
export function MyOrders() {
  const { t } = useI18n()
  const [page, setPage] = useState(1)
  const [pageSize, setPageSize] = useState(10)
  const list = useApi(() => api.get<Page<TopUpOrder>>('/api/user/topup/self', { p: page, page_size: pageSize }), [page, pageSize])
  const columns = useOrderColumns()
  // an instance without online top-up, for a user who never paid: nothing to show
  if (list.data?.total === 0 && page === 1) return null
  return (
    <section class="card wallet-orders" aria-labelledby="wallet-orders-title">
      <h2 id="wallet-orders-title">{t('orders.mine.title')}</h2>
      <ErrorAlert error={list.error} />
      <DataTable caption={t('orders.mine.title')} columns={columns} rows={list.data?.items} loading={list.loading} empty={<EmptyState message={t('orders.mine.empty')} />} />
      {list.data && list.data.total > pageSize && (
        <Pager page={page} pageSize={pageSize} total={list.data.total} onPage={setPage} onPageSize={(size) => (setPageSize(size), setPage(1))} />
      )}
    </section>
  )
}
