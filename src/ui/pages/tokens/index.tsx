import { useEffect, useState } from 'preact/hooks'
import { api, type Page } from '../../api/client'
import type { Token } from '../../api/types'
import { ErrorAlert } from '../../components/alert'
import { Button } from '../../components/button'
import { DataTable } from '../../components/data-table'
import { useConfirm } from '../../components/dialog'
import { EmptyState } from '../../components/empty-state'
import { TextField } from '../../components/field'
import { PageHeader } from '../../components/page-header'
import { Pager } from '../../components/pager'
import { useToast } from '../../components/toast'
import { useI18n } from '../../i18n'
import { enableBlocker, TOKEN_STATUS } from '../../lib/token-form'
import { asksForNew } from '../../lib/open-new'
import { useApi } from '../../state/use-api'
import { useTokenColumns } from './columns'
import { NewKeyModal, SetupModal } from './key-modal'
import { TokenDrawer } from './token-drawer'

const SEARCH_DELAY_MS = 300

/** The user's API keys: searchable, paged on the server, created and edited in the drawer. */
export function TokensPage() {
  const { t } = useI18n()
  const toast = useToast()
  const confirm = useConfirm()
  const [page, setPage] = useState(1)
  const [pageSize, setPageSize] = useState(10)
  const [search, setSearch] = useState('')
  const [keyword, setKeyword] = useState('')
  const [selected, setSelected] = useState<Set<number>>(new Set())
  const [drawer, setDrawer] = useState<{ token?: Token } | null>(() => (asksForNew(location.search) ? {} : null))
  const [newKey, setNewKey] = useState<Token | null>(null)
  const [setupFor, setSetupFor] = useState<Token | null>(null)
  const [actionError, setActionError] = useState<unknown>()

  const list = useApi(
    () => api.get<Page<Token>>(keyword ? '/api/token/search' : '/api/token/', { keyword: keyword || undefined, p: page, page_size: pageSize }),
    [keyword, page, pageSize],
  )
  const models = useApi(() => api.get<string[]>('/api/user/models'), [])

  const applyKeyword = (next: string) => {
    if (next === keyword) return
    setKeyword(next)
    setPage(1)
  }
  useEffect(() => {
    const timer = setTimeout(() => applyKeyword(search.trim()), SEARCH_DELAY_MS)
    return () => clearTimeout(timer)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [search])
  useEffect(() => setSelected(new Set()), [keyword, page, pageSize])
  // the last row of the last page went: show the page that now is the last
  useEffect(() => {
    const data = list.data
    if (data && data.items.length === 0 && data.total > 0 && page > 1) setPage(Math.max(1, Math.ceil(data.total / pageSize)))
  }, [list.data, page, pageSize])

  /** Run a row action: its failure is shown above the table, its success as a toast. */
  const act = async (work: () => Promise<string>) => {
    setActionError(undefined)
    try {
      toast(await work())
      list.reload()
    } catch (error) {
      setActionError(error)
    }
  }

  const columns = useTokenColumns({
    edit: (token) => setDrawer({ token }),
    setup: (token) => setSetupFor(token),
    toggle: (token) =>
      act(async () => {
        const enable = token.status !== TOKEN_STATUS.enabled
        const blocker = enable ? enableBlocker(token, Math.floor(Date.now() / 1000)) : undefined
        if (blocker) throw new Error(t(blocker === 'expired' ? 'tokens.error.enableExpired' : 'tokens.error.enableExhausted', { name: token.name }))
        await api.put('/api/token/', { id: token.id, status: enable ? TOKEN_STATUS.enabled : TOKEN_STATUS.disabled }, { status_only: 1 })
        return t(enable ? 'tokens.toast.enabled' : 'tokens.toast.disabled', { name: token.name })
      }),
    remove: async (token) => {
      if (!(await confirm({ message: t('tokens.confirm.delete', { name: token.name }), confirmLabel: t('common.delete') }))) return
      await act(async () => {
        await api.delete(`/api/token/${token.id}`)
        setSelected((previous) => new Set([...previous].filter((id) => id !== token.id)))
        return t('tokens.toast.deleted', { name: token.name })
      })
    },
  })

  const removeSelected = async () => {
    const ids = [...selected]
    const message = ids.length === 1 ? t('tokens.confirm.batchOne') : t('tokens.confirm.batch', { count: ids.length })
    if (!(await confirm({ message, confirmLabel: t('common.delete') }))) return
    await act(async () => {
      const count = await api.post<number>('/api/token/batch', { ids })
      setSelected(new Set())
      return t('tokens.toast.batchDeleted', { count })
    })
  }

  const saved = (token: Token, created: boolean) => {
    setDrawer(null)
    list.reload()
    toast(t(created ? 'tokens.toast.created' : 'tokens.toast.saved', { name: token.name }))
    if (created) setNewKey(token)
  }

  const newButton = (
    <Button variant="primary" onClick={() => setDrawer({})}>
      {t('tokens.new')}
    </Button>
  )
  const rows = list.data?.items
  const names = new Map(rows?.map((token) => [token.id, token.name]))

  return (
    <>
      <PageHeader title={t('nav.tokens')} lead={t('tokens.lead')} actions={newButton} />
      <form class="filters" role="search" onSubmit={(event) => (event.preventDefault(), applyKeyword(search.trim()))}>
        <TextField label={t('common.search')} type="search" value={search} onValue={setSearch} placeholder={t('tokens.searchPlaceholder')} autocomplete="off" />
      </form>
      <ErrorAlert error={list.error} />
      <ErrorAlert error={actionError} />
      {selected.size > 0 && (
        <div class="batch-bar">
          <Button variant="danger" onClick={removeSelected}>
            {t('common.deleteSelected', { count: selected.size })}
          </Button>
        </div>
      )}
      <div class="tokens-list">
      <DataTable
        caption={t('tokens.caption')}
        columns={columns}
        rows={rows}
        loading={list.loading}
        selection={{ selected, onChange: setSelected, rowLabel: (id) => t('common.selectRow', { name: names.get(id) ?? String(id) }) }}
        empty={
          keyword ? (
            <EmptyState
              message={t('tokens.emptySearch', { keyword })}
              action={
                <Button onClick={() => (setSearch(''), applyKeyword(''))}>{t('tokens.clearSearch')}</Button>
              }
            />
          ) : (
            <EmptyState message={t('tokens.empty')} action={newButton} />
          )
        }
      />
      </div>
      {list.data && list.data.total > 0 && (
        <Pager page={page} pageSize={pageSize} total={list.data.total} onPage={setPage} onPageSize={(size) => (setPageSize(size), setPage(1))} />
      )}
      {drawer && <TokenDrawer token={drawer.token} models={models.data} onClose={() => setDrawer(null)} onSaved={saved} />}
      {newKey && <NewKeyModal token={newKey} models={models.data} onClose={() => setNewKey(null)} />}
      {setupFor && <SetupModal token={setupFor} models={models.data} onClose={() => setSetupFor(null)} />}
    </>
  )
}
