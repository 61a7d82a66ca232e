import { useState } from 'preact/hooks'
import { api } from '../../api/client'
import { ErrorAlert } from '../../components/alert'
import { Button } from '../../components/button'
import { Drawer } from '../../components/drawer'
import { TextField } from '../../components/field'
import { useToast } from '../../components/toast'
import { useI18n, type MessageKey } from '../../i18n'
import { syncValue, type SyncField, type SyncRaw } from '../../lib/price-sync'

type Field = SyncField
type Value = SyncRaw
interface Difference {
  current?: Value
  upstreams: Record<string, Value | null>
  change: 'added' | 'changed' | 'removed'
}
interface Fetched {
  results: { name: string; ok: boolean; error?: string; code?: string; status?: number; models: number }[]
  differences: Record<string, Partial<Record<Field, Difference>>>
}
/** One change as reviewed: the source's value (the first that has one), or null to remove. */
interface Row {
  id: string
  model: string
  field: Field
  current?: Value
  value: Value | null
  change: Difference['change']
}

const SOURCE_FAILURES: Record<string, MessageKey> = {
  source_status: 'sync.source.status',
  source_not_json: 'sync.source.notJson',
  source_too_large: 'sync.source.tooLarge',
  source_unreachable: 'sync.source.unreachable',
}

function rowsOf(fetched: Fetched): Row[] {
  return Object.entries(fetched.differences).flatMap(([model, fields]) =>
    Object.entries(fields).map(([field, diff]) => {
      const offered = Object.values(diff!.upstreams).find((value) => value !== null)
      return { id: `${model}\u0000${field}`, model, field: field as Field, current: diff!.current, value: offered ?? null, change: diff!.change }
    }),
  )
}

/** Root: read another instance's prices (or models.dev's), review what would change, apply the rows kept. */
export function SyncPricesDrawer({ quotaPerUnit, onSaved, onClose }: { quotaPerUnit: number; onSaved(): void; onClose(): void }) {
  const { t, locale } = useI18n()
  const toast = useToast()
  const [baseUrl, setBaseUrl] = useState('')
  const [endpoint, setEndpoint] = useState('')
  const [fetched, setFetched] = useState<Fetched>()
  const [kept, setKept] = useState<Set<string>>(new Set())
  const [failure, setFailure] = useState<unknown>()
  const [busy, setBusy] = useState(false)
  const rows = fetched ? rowsOf(fetched) : []

  const compare = async (event: Event) => {
    event.preventDefault()
    setFailure(undefined)
    setBusy(true)
    try {
      const answer = await api.post<Fetched>('/api/ratio_sync/fetch', { upstreams: [{ name: 'source', base_url: baseUrl.trim(), ...(endpoint.trim() ? { endpoint: endpoint.trim() } : {}) }] })
      setFetched(answer)
      setKept(new Set(rowsOf(answer).map((row) => row.id)))
    } catch (error) {
      setFailure(error)
    } finally {
      setBusy(false)
    }
  }

  const apply = async () => {
    setBusy(true)
    try {
      const changes = rows.filter((row) => kept.has(row.id)).map(({ model, field, value }) => ({ model, field, value }))
      await api.post('/api/ratio_sync/apply', { changes })
      toast(t('sync.applied', { count: changes.length }))
      onSaved()
    } catch (error) {
      setFailure(error)
    } finally {
      setBusy(false)
    }
  }

  const toggle = (id: string) =>
    setKept((current) => {
      const next = new Set(current)
      if (next.has(id)) next.delete(id)
      else next.add(id)
      return next
    })
  const failed = fetched?.results.find((result) => !result.ok)
  // in the console's price words; the stored ratio on hover, for whoever compares with option tables
  const shown = (field: Field, value: Value | null | undefined) => {
    const read = syncValue(field, value, quotaPerUnit, locale)
    if (!read) return <span class="muted">—</span>
    if (read.kind === 'tiers') return <span>{read.tiers.map((tier) => t('sync.value.tier', { ...tier })).join(' · ')}</span>
    const words = read.kind === 'multiple' ? t('sync.value.multiple', { times: read.times }) : t(`sync.value.${read.kind}`, { amount: read.amount })
    return <span title={t('sync.value.raw', { field, value: String(value) })}>{words}</span>
  }
  // the reader's words by code; the server's own (English) text only for a code the console does not know
  const sourceFailure = (result: Fetched['results'][number]) =>
    result.code && SOURCE_FAILURES[result.code] ? t(SOURCE_FAILURES[result.code]!, { status: result.status ?? '' }) : (result.error ?? '')
  const fieldName = (field: Field) => t(`sync.field.${field}`)
  return (
    <Drawer
      title={t('sync.title')}
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button variant="primary" busy={busy} disabled={kept.size === 0} onClick={apply}>
            {t('sync.apply', { count: kept.size })}
          </Button>
        </>
      }
    >
      <form class="form" onSubmit={compare} noValidate>
        <TextField label={t('sync.baseUrl')} value={baseUrl} onValue={setBaseUrl} hint={t('sync.baseUrlHint')} />
        <TextField label={t('sync.endpoint')} value={endpoint} onValue={setEndpoint} hint={t('sync.endpointHint')} />
        <Button type="submit" busy={busy}>
          {t('sync.compare')}
        </Button>
      </form>
      {failed && <p class="alert">{t('sync.failed', { error: sourceFailure(failed) })}</p>}
      {fetched && !failed && rows.length === 0 && <p class="muted">{t('sync.none')}</p>}
      {rows.length > 0 && (
        <table class="table">
          <caption class="visually-hidden">{t('sync.caption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('sync.col.keep')}</th>
              <th scope="col">{t('pricing.col.model')}</th>
              <th scope="col">{t('sync.col.field')}</th>
              <th scope="col">{t('sync.col.current')}</th>
              <th scope="col">{t('sync.col.upstream')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.id}>
                <td>
                  <input type="checkbox" checked={kept.has(row.id)} aria-label={t('sync.keepFor', { model: row.model, field: fieldName(row.field) })} onChange={() => toggle(row.id)} />
                </td>
                <td>{row.model}</td>
                <td>
                  {fieldName(row.field)} <span class="muted">({t(`sync.change.${row.change}` as MessageKey)})</span>
                </td>
                <td>{shown(row.field, row.current)}</td>
                <td>{shown(row.field, row.value)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <ErrorAlert error={failure} />
    </Drawer>
  )
}
