import { errorText } from '../../components/alert'
import { useState } from 'preact/hooks'
import { api } from '../../api/client'
import { useConfirm } from '../../components/dialog'
import { useToast } from '../../components/toast'
import { useI18n } from '../../i18n'
import { formatNumber } from '../../lib/format'
import { ChannelStatus, type Channel } from './types'

interface Options {
  /** reload the list (and the tags when they may have changed) */
  reload(tags?: boolean): void
  /** clear the selection after a batch action */
  clearSelection(): void
}

/**
 * What the page does to channels: row actions (test, enable/disable optimistically, delete after a
 * confirmation naming the channel), batch actions on the selection and the by-tag switches. Server errors
 * land in `failure`, shown in an alert above the table; successes are toasts.
 */
export function useChannelActions({ reload, clearSelection }: Options) {
  const { t, locale } = useI18n()
  const toast = useToast()
  const confirm = useConfirm()
  const [failure, setFailure] = useState<unknown>()
  const [overrides, setOverrides] = useState<ReadonlyMap<number, Partial<Channel>>>(new Map())
  const [testing, setTesting] = useState<ReadonlySet<number>>(new Set())
  const [busy, setBusy] = useState(false)

  const override = (id: number, patch: Partial<Channel> | undefined) =>
    setOverrides((current) => {
      const next = new Map(current)
      if (patch) next.set(id, { ...current.get(id), ...patch })
      else next.delete(id)
      return next
    })
  const flag = (id: number, on: boolean) =>
    setTesting((current) => {
      const next = new Set(current)
      if (on) next.add(id)
      else next.delete(id)
      return next
    })

  /** Runs a server call; its error goes to the alert, its success message to a toast. */
  const run = async (work: () => Promise<string | undefined>, after?: () => void) => {
    setFailure(undefined)
    setBusy(true)
    try {
      const message = await work()
      if (message) toast(message)
      after?.()
    } catch (error) {
      setFailure(error)
    } finally {
      setBusy(false)
    }
  }

  const test = async (channel: Channel) => {
    setFailure(undefined)
    flag(channel.id, true)
    try {
      const result = await api.get<{ time_ms: number }>(`/api/channel/test/${channel.id}`)
      override(channel.id, { response_time: result.time_ms, test_time: Math.floor(Date.now() / 1000), test_error: null })
      toast(t('channels.test.ok', { name: channel.name, ms: formatNumber(result.time_ms, locale) }))
    } catch (error) {
      setFailure(new Error(t('channels.test.failed', { name: channel.name, message: errorText(error, t, locale) })))
      reload() // the server recorded the attempt's time
    } finally {
      flag(channel.id, false)
    }
  }

  /** Asks the vendor for the account's balance (GET /api/channel/update_balance/:id) and shows it on the row. */
  const updateBalance = (channel: Channel) =>
    run(async () => {
      const { balance } = await api.get<{ balance: number }>(`/api/channel/update_balance/${channel.id}`)
      override(channel.id, { balance, balance_updated_time: Math.floor(Date.now() / 1000) })
      return t('channels.balance.updated', { name: channel.name, balance: formatNumber(balance, locale) })
    })

  const toggle = async (channel: Channel) => {
    const status = channel.status === ChannelStatus.enabled ? ChannelStatus.manuallyDisabled : ChannelStatus.enabled
    setFailure(undefined)
    override(channel.id, { status })
    try {
      await api.put('/api/channel/', { id: channel.id, status })
      toast(t(status === ChannelStatus.enabled ? 'channels.toast.enabled' : 'channels.toast.disabled', { name: channel.name }))
    } catch (error) {
      override(channel.id, { status: channel.status })
      setFailure(error)
    }
  }

  const remove = async (channel: Channel) => {
    if (!(await confirm({ message: t('channels.delete.confirm', { name: channel.name }), confirmLabel: t('common.delete') }))) return
    await run(async () => {
      await api.delete(`/api/channel/${channel.id}`)
      return t('channels.toast.deleted', { name: channel.name })
    }, () => reload(true))
  }

  const setStatusOf = async (ids: readonly number[], enabled: boolean) => {
    const status = enabled ? ChannelStatus.enabled : ChannelStatus.manuallyDisabled
    for (const id of ids) override(id, { status })
    await run(async () => {
      const results = await Promise.allSettled(ids.map((id) => api.put('/api/channel/', { id, status })))
      const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected')
      if (failed) throw failed.reason
      return t(enabled ? 'channels.toast.batchEnabled' : 'channels.toast.batchDisabled', { count: ids.length })
    }, clearSelection)
    reload()
  }

  const removeMany = async (ids: readonly number[]) => {
    if (!(await confirm({ message: t('channels.batch.deleteConfirm', { count: ids.length }), confirmLabel: t('common.delete') }))) return
    await run(async () => {
      const n = await api.post<number>('/api/channel/batch', { ids })
      return t('channels.toast.batchDeleted', { count: n })
    }, () => (clearSelection(), reload(true)))
  }

  const tagMany = (ids: readonly number[], tag: string) =>
    run(async () => {
      await api.post('/api/channel/batch/tag', { ids, tag })
      return tag ? t('channels.toast.tagged', { count: ids.length, tag }) : t('channels.toast.untagged', { count: ids.length })
    }, () => (clearSelection(), reload(true)))

  /** new-api's copy route: the channel with its keys, named in the reader's language */
  const duplicate = (channel: Channel) =>
    run(async () => {
      await api.post(`/api/channel/copy/${channel.id}?suffix=${encodeURIComponent(t('channels.copySuffix'))}`)
      return t('channels.toast.duplicated', { name: channel.name })
    }, () => reload())

  const setTagStatus = async (tag: string, enabled: boolean) => {
    if (!enabled && !(await confirm({ message: t('channels.tag.disableConfirm', { tag }), confirmLabel: t('channels.tag.disable', { tag }) }))) return
    await run(async () => {
      const n = await api.post<number>(`/api/channel/tag/${enabled ? 'enabled' : 'disabled'}`, { tag })
      return t(enabled ? 'channels.toast.tagEnabled' : 'channels.toast.tagDisabled', { tag, count: n })
    }, () => reload())
  }

  return {
    failure,
    setFailure,
    busy,
    overrides,
    clearOverrides: () => setOverrides(new Map()),
    testing,
    row: { test, toggle, remove, duplicate, updateBalance },
    batch: { setStatusOf, removeMany, tagMany },
    setTagStatus,
  }
}
