import { useState } from 'preact/hooks'
import { api, type Page } from '../../api/client'
import { Role } from '../../api/types'
import { ErrorAlert } from '../../components/alert'
import { DataTable, type Column } from '../../components/data-table'
import { EmptyState } from '../../components/empty-state'
import { PageHeader } from '../../components/page-header'
import { Pager } from '../../components/pager'
import { Quota } from '../../components/quota'
import { useI18n, type MessageKey } from '../../i18n'
import { formatTime } from '../../lib/format'
import { useUser } from '../../state/session'
import { useApi } from '../../state/use-api'

/** What the two lists share of a task row (the server's `/api/mj` and `/api/task` items). */
interface TaskItem {
  id: number
  user_id: number
  channel_id: number
  action: string
  status: string
  progress: string
  fail_reason: string
  quota: number
  refunded: boolean
}
interface MjItem extends TaskItem {
  mj_id: string
  prompt: string
  image_url: string
  submit_time: number
}
interface SunoItem extends TaskItem {
  task_id: string
  platform: string
  submit_time: number
  properties: { input: string }
  /** a finished video's preview, streamed by the gateway */
  content_url?: string
}

/** Users see their own tasks (`…/self`); admins everyone's, with the user and channel. */
function TaskList<Row extends TaskItem>(props: { path: string; title: MessageKey; lead: MessageKey; own: (row: Row) => Column<Row>[] }) {
  const { t } = useI18n()
  const admin = useUser().role >= Role.admin
  const [page, setPage] = useState(1)
  const [pageSize, setPageSize] = useState(20)
  const list = useApi(() => api.get<Page<Row>>(`${props.path}${admin ? '/' : '/self'}`, { p: page, page_size: pageSize }), [page, pageSize, admin])
  const columns: Column<Row>[] = [
    ...props.own(undefined as unknown as Row),
    { header: t('tasks.column.action'), cell: (row) => row.action },
    { header: t('tasks.column.status'), card: 'key', cell: (row) => `${row.status} · ${row.progress}` },
    { header: t('tasks.column.quota'), numeric: true, cell: (row) => (row.refunded ? t('tasks.refunded') : <Quota value={row.quota} />) },
    { header: t('tasks.column.failReason'), cell: (row) => row.fail_reason },
    ...(admin ? [{ header: t('tasks.column.user'), cell: (row: Row) => String(row.user_id) }, { header: t('tasks.column.channel'), cell: (row: Row) => String(row.channel_id) }] : []),
  ]
  return (
    <>
      <PageHeader title={t(props.title)} lead={t(props.lead)} />
      <ErrorAlert error={list.error} />
      <DataTable caption={t(props.title)} columns={columns} rows={list.data?.items} loading={list.loading} empty={<EmptyState message={t('tasks.empty')} />} />
      {list.data && list.data.total > 0 && <Pager page={page} pageSize={pageSize} total={list.data.total} onPage={setPage} onPageSize={(size) => (setPageSize(size), setPage(1))} />}
    </>
  )
}

/** Midjourney tasks: the image, when there is one, opens at its upstream URL. */
export function MidjourneyPage() {
  const { t, locale } = useI18n()
  return (
    <TaskList<MjItem>
      path="/api/mj"
      title="tasks.mj.title"
      lead="tasks.mj.lead"
      own={() => [
        { header: t('tasks.column.time'), cell: (row) => formatTime(Math.floor(row.submit_time / 1000), locale) },
        { header: t('tasks.column.id'), card: 'title', cell: (row) => row.mj_id },
        { header: t('tasks.column.prompt'), cell: (row) => row.prompt },
        {
          header: t('tasks.column.result'),
          cell: (row) =>
            row.image_url ? (
              <a href={row.image_url} target="_blank" rel="noreferrer noopener">
                {t('tasks.openImage')}
              </a>
            ) : null,
        },
      ]}
    />
  )
}

/** Tasks of the other platforms (Suno, videos): a finished video opens through the gateway. */
export function TasksPage() {
  const { t, locale } = useI18n()
  return (
    <TaskList<SunoItem>
      path="/api/task"
      title="tasks.title"
      lead="tasks.lead"
      own={() => [
        { header: t('tasks.column.time'), cell: (row) => formatTime(row.submit_time, locale) },
        { header: t('tasks.column.id'), card: 'title', cell: (row) => row.task_id },
        { header: t('tasks.column.platform'), cell: (row) => row.platform },
        { header: t('tasks.column.prompt'), cell: (row) => row.properties.input },
        {
          header: t('tasks.column.result'),
          cell: (row) =>
            row.content_url ? (
              <a href={row.content_url} target="_blank" rel="noreferrer noopener">
                {t('videos.openVideo')}
              </a>
            ) : null,
        },
      ]}
    />
  )
}
