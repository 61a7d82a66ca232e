import { useState } from 'preact/hooks'
import type { User } from '../../api/types'
import { ErrorAlert } from '../../components/alert'
import { Button } from '../../components/button'
import { DataTable, type Column } from '../../components/data-table'
import { EmptyState } from '../../components/empty-state'
import { PageHeader } from '../../components/page-header'
import { Pager } from '../../components/pager'
import { useQuotaFormat } from '../../components/quota'
import { StatusDot } from '../../components/status-dot'
import { useI18n } from '../../i18n'
import { formatNumber } from '../../lib/format'
import { SearchBox, usePagedSearch } from './paged-search'
import { QuotaDrawer } from './quota-drawer'
import { UserRowMenu } from './row-actions'
import { UserDrawer } from './user-drawer'

type Editing = { kind: 'create' } | { kind: 'edit'; user: User } | { kind: 'quota'; user: User } | null

/** Admins manage the accounts below them: create, edit, enable/disable, promote/demote, balances, delete. */
export function UsersPage() {
  const { t, locale } = useI18n()
  const formatQuota = useQuotaFormat()
  const search = usePagedSearch<User>('/api/user/')
  const [editing, setEditing] = useState<Editing>(null)
  const [actionError, setActionError] = useState<unknown>()
  const changed = () => {
    setEditing(null)
    setActionError(undefined)
    search.reload()
  }
  const handlers = { onEdit: (user: User) => setEditing({ kind: 'edit', user }), onQuota: (user: User) => setEditing({ kind: 'quota', user }), onChanged: changed, onError: setActionError }
  const number = (value: number) => formatNumber(value, locale)

  const columns: Column<User>[] = [
    { header: t('common.id'), cell: (user) => user.id, numeric: true },
    { header: t('users.column.username'), card: 'title', cell: (user) => <span class="users-name">{user.username}</span> },
    { header: t('users.column.displayName'), cell: (user) => user.display_name || <span class="muted">—</span> },
    { header: t('users.column.role'), cell: (user) => <span class={user.role >= 10 ? 'chip users-role-admin' : 'chip'}>{roleWord(t, user.role)}</span> },
    {
      header: t('common.status'),
      cell: (user) => (user.status === 1 ? <StatusDot tone="success" label={t('users.status.enabled')} /> : <StatusDot tone="danger" label={t('users.status.disabled')} />),
    },
    { header: t('common.group'), cell: (user) => user.group },
    { header: t('users.column.balance'), cell: (user) => formatQuota(user.quota), numeric: true, card: 'key' },
    { header: t('users.column.used'), cell: (user) => formatQuota(user.used_quota), numeric: true },
    { header: t('users.column.requests'), cell: (user) => number(user.request_count), numeric: true },
    {
      header: t('users.column.invitations'),
      cell: (user) => (
        <>
          {number(user.aff_count)}
          {user.inviter_id > 0 && <span class="muted"> · {t('users.invitedBy', { id: user.inviter_id })}</span>}
        </>
      ),
    },
    { header: t('common.actions'), cell: (user) => <UserRowMenu user={user} handlers={handlers} />, class: 'col-actions' },
  ]

  return (
    <>
      <PageHeader
        title={t('nav.users')}
        lead={t('users.lead')}
        actions={
          <Button variant="primary" onClick={() => setEditing({ kind: 'create' })}>
            {t('users.create.button')}
          </Button>
        }
      />
      <SearchBox search={search} placeholder={t('users.search.placeholder')} />
      <ErrorAlert error={search.error ?? actionError} />
      <div class="users-list">
        <DataTable
          caption={t('nav.users')}
          columns={columns}
          rows={search.data?.items}
          loading={search.loading}
          empty={
            search.keyword ? (
              <EmptyState message={t('users.empty.search', { keyword: search.keyword })} action={<Button onClick={search.clear}>{t('users.empty.clear')}</Button>} />
            ) : (
              <EmptyState message={t('users.empty.none')} action={<Button variant="primary" onClick={() => setEditing({ kind: 'create' })}>{t('users.create.button')}</Button>} />
            )
          }
        />
      </div>
      {search.data && search.data.total > 0 && (
        <Pager page={search.page} pageSize={search.pageSize} total={search.data.total} onPage={search.setPage} onPageSize={search.setPageSize} />
      )}
      {editing?.kind === 'create' && <UserDrawer onClose={() => setEditing(null)} onSaved={changed} />}
      {editing?.kind === 'edit' && <UserDrawer user={editing.user} onClose={() => setEditing(null)} onSaved={changed} />}
      {editing?.kind === 'quota' && <QuotaDrawer user={editing.user} onClose={() => setEditing(null)} onSaved={changed} />}
    </>
  )
}

function roleWord(t: ReturnType<typeof useI18n>['t'], role: number): string {
  if (role >= 100) return t('users.role.100')
  if (role >= 10) return t('users.role.10')
  return t('users.role.1')
}
