import { useEffect, useState } from 'preact/hooks'
import { api, type Page } from '../../api/client'
import { ErrorAlert } from '../../components/alert'
import { Button } from '../../components/button'
import { EmptyState } from '../../components/empty-state'
import { PageHeader } from '../../components/page-header'
import { useToast } from '../../components/toast'
import { Pager } from '../../components/pager'
import { useI18n } from '../../i18n'
import { asksForNew } from '../../lib/open-new'
import { useApi } from '../../state/use-api'
import { ChannelDrawer } from './channel-drawer'
import { UnpricedAfterSave } from './unpriced-after-save'
import { ChannelTable } from './channel-table'
import { ChannelFilters } from './filters'
import { SetTagDialog } from './set-tag'
import { TestAllDialog } from './test-all'
import { UpstreamModelsDialog } from './upstream-models'
import { filtersFrom, hasFilters, NO_FILTERS, type Channel, type Filters, type TypeInfo } from './types'
import { TrafficWindowPicker, useChannelTraffic, useTrafficWindow } from './traffic'
import { useChannelActions } from './use-channel-actions'

/** The filters live in the address, so a filtered list survives a reload and can be linked to. */
function useFilters(): [Filters, (next: Filters) => void] {
  const [filters, setFilters] = useState<Filters>(() => filtersFrom(location.search))
  const update = (next: Filters) => {
    const params = new URLSearchParams(Object.entries(next).filter(([, value]) => value !== ''))
    const search = params.toString()
    setFilters(next) // first: the list follows the filters even if the address cannot change
    history.replaceState(history.state, '', `${location.pathname}${search ? `?${search}` : ''}`)
  }
  return [filters, update]
}

export function ChannelsPage() {
  const { t } = useI18n()
  const [filters, setFilters] = useFilters()
  const [page, setPage] = useState(1)
  const [pageSize, setPageSize] = useState(20)
  const [tagsVersion, setTagsVersion] = useState(0)
  const [selected, setSelected] = useState<Set<number>>(new Set())
  const [editing, setEditing] = useState<Channel | 'new' | null>(() => (asksForNew(location.search) ? 'new' : null))
  const [dialog, setDialog] = useState<'testAll' | 'setTag' | null>(null)
  const [priceCheck, setPriceCheck] = useState(0)
  const [upstreamOf, setUpstreamOf] = useState<Channel | null>(null)
  const toast = useToast()
  const list = useApi(() => api.get<Page<Channel>>('/api/channel/', { ...filters, p: page, page_size: pageSize }), [filters, page, pageSize])
  const tags = useApi(() => api.get<string[]>('/api/channel/tags'), [tagsVersion])
  const types = useApi(() => api.get<TypeInfo[]>('/api/channel/models'), [])
  const [period, setPeriod] = useTrafficWindow()
  const traffic = useChannelTraffic(period, list.data)
  const reload = (withTags?: boolean) => {
    list.reload()
    if (withTags) setTagsVersion((v) => v + 1)
  }
  const actions = useChannelActions({ reload, clearSelection: () => setSelected(new Set()) })
  useEffect(() => actions.clearOverrides(), [list.data])

  const changeFilters = (next: Filters) => {
    setFilters(next)
    setPage(1)
    setSelected(new Set())
  }
  const rows = list.data?.items.map((row) => ({ ...row, ...actions.overrides.get(row.id) }))
  const ids = [...selected]
  const openNew = () => setEditing('new')

  const empty = hasFilters(filters) ? (
    <EmptyState message={t('channels.empty.filtered')} action={<Button onClick={() => changeFilters(NO_FILTERS)}>{t('channels.empty.reset')}</Button>} />
  ) : (
    <EmptyState message={t('channels.empty.none')} action={<Button variant="primary" onClick={openNew}>{t('channels.empty.add')}</Button>} />
  )

  return (
    <div class="channels-page">
      <PageHeader
        title={t('nav.channels')}
        lead={t('channels.lead')}
        actions={
          <>
            <Button onClick={() => setDialog('testAll')}>{t('channels.testAll.button')}</Button>
            <Button variant="primary" onClick={openNew}>
              {t('channels.create.button')}
            </Button>
          </>
        }
      />
      <ChannelFilters value={filters} tags={tags.data ?? []} onChange={changeFilters} />
      {filters.tag && (
        <div class="tag-bar" role="group" aria-label={t('channels.tag.group', { tag: filters.tag })}>
          <span class="muted">{t('channels.tag.lead', { tag: filters.tag })}</span>
          <Button onClick={() => actions.setTagStatus(filters.tag, true)} disabled={actions.busy}>
            {t('channels.tag.enable', { tag: filters.tag })}
          </Button>
          <Button variant="danger" onClick={() => actions.setTagStatus(filters.tag, false)} disabled={actions.busy}>
            {t('channels.tag.disable', { tag: filters.tag })}
          </Button>
        </div>
      )}
      {selected.size > 0 && (
        <div class="batch-bar" role="group" aria-label={t('channels.batch.group')}>
          <span class="muted">{t('channels.batch.selected', { count: selected.size })}</span>
          <Button onClick={() => actions.batch.setStatusOf(ids, true)} disabled={actions.busy}>
            {t('channels.batch.enable', { count: selected.size })}
          </Button>
          <Button onClick={() => actions.batch.setStatusOf(ids, false)} disabled={actions.busy}>
            {t('channels.batch.disable', { count: selected.size })}
          </Button>
          <Button onClick={() => setDialog('setTag')} disabled={actions.busy}>
            {t('channels.batch.setTag')}
          </Button>
          <Button variant="danger" onClick={() => actions.batch.removeMany(ids)} disabled={actions.busy}>
            {t('common.deleteSelected', { count: selected.size })}
          </Button>
        </div>
      )}
      {priceCheck > 0 && <UnpricedAfterSave key={priceCheck} />}
      <ErrorAlert error={actions.failure ?? list.error ?? traffic.error} />
      {(rows?.length ?? 0) > 0 && (
        <div class="channels-toolbar">
          <TrafficWindowPicker value={period} onChange={setPeriod} />
        </div>
      )}
      <ChannelTable
        rows={rows}
        loading={list.loading}
        empty={empty}
        testing={actions.testing}
        selected={selected}
        onSelect={setSelected}
        actions={{ edit: setEditing, upstreamModels: setUpstreamOf, ...actions.row }}
        traffic={traffic.data}
        period={period}
      />
      {list.data && list.data.total > 0 && (
        <Pager
          page={page}
          pageSize={pageSize}
          total={list.data.total}
          onPage={(next) => (setPage(next), setSelected(new Set()))}
          onPageSize={(size) => (setPageSize(size), setPage(1), setSelected(new Set()))}
        />
      )}
      {editing && (
        <ChannelDrawer
          channel={editing === 'new' ? undefined : editing}
          types={types.data ?? []}
          tags={tags.data ?? []}
          onClose={() => setEditing(null)}
          onSaved={() => (setEditing(null), reload(true), setPriceCheck((v) => v + 1))}
        />
      )}
      {dialog === 'testAll' && <TestAllDialog onClose={() => (setDialog(null), list.reload())} />}
      {upstreamOf && (
        <UpstreamModelsDialog channel={upstreamOf} onClose={() => setUpstreamOf(null)} onApplied={() => (setUpstreamOf(null), toast(t('upstream.applied')), list.reload())} />
      )}
      {dialog === 'setTag' && <SetTagDialog count={selected.size} tags={tags.data ?? []} onSubmit={(tag) => actions.batch.tagMany(ids, tag)} onClose={() => setDialog(null)} />}
    </div>
  )
}
