import type { ComponentChildren } from 'preact'
import { Link } from 'wouter-preact'
import type { LogRow } from '../../api/types'
import { CopyButton } from '../../components/copy-button'
import { Drawer } from '../../components/drawer'
import { useQuotaFormat } from '../../components/quota'
import { StatusDot } from '../../components/status-dot'
import { useI18n } from '../../i18n'
import { formatNumber } from '../../lib/format'
import { LogTypeId, logsHref } from '../../lib/log-filters'
import { attemptsOf, formatDuration, otherJson } from '../../lib/log-rows'
import { LogTime, typeLabel } from './log-table'

function Item({ label, children }: { label: string; children: ComponentChildren }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </>
  )
}

/** Tokens, quota and timing of a request. */
function UsageList({ row }: { row: LogRow }) {
  const { t, locale } = useI18n()
  const quota = useQuotaFormat()
  const number = (value: number) => formatNumber(value, locale)
  const duration = (ms: number) => (ms > 0 ? formatDuration(ms, locale) : '—')
  return (
    <>
      <h3>{t('logs.detail.usage')}</h3>
      <dl class="detail-list">
        <Item label={t('logs.detail.prompt')}>{number(row.prompt_tokens)}</Item>
        <Item label={t('logs.detail.completion')}>{number(row.completion_tokens)}</Item>
        <Item label={t('logs.detail.cacheRead')}>{number(row.cache_read_tokens)}</Item>
        <Item label={t('logs.detail.cacheWrite')}>{number(row.cache_write_tokens)}</Item>
        <Item label={t('logs.detail.reasoning')}>{number(row.reasoning_tokens)}</Item>
        <Item label={t('logs.detail.quota')}>{quota(row.quota)}</Item>
        <Item label={t('logs.detail.duration')}>{duration(row.use_time_ms)}</Item>
        <Item label={t('logs.detail.ttft')}>{row.is_stream ? duration(row.first_token_ms) : '—'}</Item>
      </dl>
    </>
  )
}

/** Every field of one log row, in a drawer; admins also see the channel and the retry path. */
export function LogDetail({ row, admin, onClose }: { row: LogRow; admin: boolean; onClose(): void }) {
  const { t } = useI18n()
  const quota = useQuotaFormat()
  const channel = 'channel' in row ? row.channel : undefined
  const attempts = attemptsOf(row.other)
  const other = otherJson(row.other)
  // top-up, manage and system rows carry no model, tokens or timing: only their message and details
  const request = row.type === LogTypeId.consume || row.type === LogTypeId.error
  return (
    <Drawer title={t('logs.detail.title', { id: row.id })} onClose={onClose}>
      <div class="log-detail">
        <h3>{t('logs.detail.request')}</h3>
        <dl class="detail-list">
          <Item label={t('logs.detail.time')}>
            <LogTime seconds={row.created_at} />
          </Item>
          <Item label={t('logs.detail.type')}>{t(typeLabel(row.type))}</Item>
          <Item label={t('logs.detail.requestId')}>
            {row.request_id ? (
              <span class="detail-copy">
                <code>{row.request_id}</code>
                <CopyButton text={row.request_id} label={t('logs.detail.copyRequestId')} />
              </span>
            ) : (
              '—'
            )}
          </Item>
          <Item label={t('logs.detail.user')}>{row.username || '—'}</Item>
          {request && (
            <>
              <Item label={t('logs.detail.token')}>{row.token_name || '—'}</Item>
              <Item label={t('logs.detail.model')}>{row.model_name || '—'}</Item>
              {row.upstream_model && row.upstream_model !== row.model_name && <Item label={t('logs.detail.upstreamModel')}>{row.upstream_model}</Item>}
              <Item label={t('logs.detail.group')}>{row.group || '—'}</Item>
              {admin && <Item label={t('logs.detail.channel')}>{channel ? `#${channel}` : '—'}</Item>}
              <Item label={t('logs.detail.stream')}>{row.is_stream ? t('common.yes') : t('common.no')}</Item>
              <Item label={t('logs.detail.status')}>
                {row.status_code ? <StatusDot tone={row.status_code < 400 ? 'success' : 'danger'} label={String(row.status_code)} /> : '—'}
              </Item>
            </>
          )}
          {!request && row.quota !== 0 && <Item label={t('logs.detail.quota')}>{quota(row.quota)}</Item>}
          <Item label={t('logs.detail.ip')}>{row.ip || '—'}</Item>
        </dl>

        {request && <UsageList row={row} />}

        {row.content && (
          <>
            <h3>{t('logs.detail.message')}</h3>
            <pre class="code-block detail-message">{row.content}</pre>
          </>
        )}

        {admin && attempts.length > 0 && (
          <>
            <h3>{t('logs.detail.attempts')}</h3>
            <ol class="attempts">
              {attempts.map((attempt, i) => (
                <li key={i}>
                  <StatusDot tone={attempt.status > 0 && attempt.status < 400 ? 'success' : 'danger'} label={t('logs.detail.attempt', { channel: attempt.channelId, status: attempt.status || '—' })} />
                  {attempt.error && <span class="attempt-error">{attempt.error}</span>}
                </li>
              ))}
            </ol>
          </>
        )}

        {other && (
          <>
            <h3>{t('logs.detail.other')}</h3>
            <pre class="code-block">{other}</pre>
          </>
        )}

        {row.request_id && (
          <p>
            <Link href={logsHref({ requestId: row.request_id })} onClick={onClose}>
              {t('logs.detail.sameRequest')}
            </Link>
          </p>
        )}
      </div>
    </Drawer>
  )
}
