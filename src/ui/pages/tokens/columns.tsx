import type { Token } from '../../api/types'
import type { Column } from '../../components/data-table'
import { Quota } from '../../components/quota'
import { RowMenu, type MenuAction } from '../../components/row-menu'
import { StatusDot, type Tone } from '../../components/status-dot'
import { useI18n } from '../../i18n'
import { formatDate, formatTime, timeZoneName } from '../../lib/format'
import { NEVER, splitList, TOKEN_STATUS, tokenState, type TokenState } from '../../lib/token-form'

const TONES: Record<TokenState, Tone> = { enabled: 'success', disabled: 'muted', expired: 'warning', exhausted: 'danger' }
const SHOWN_MODELS = 1

export interface RowActions {
  edit(token: Token): void
  toggle(token: Token): void
  remove(token: Token): void
  setup(token: Token): void
}

/** The token table's columns: name, status (dot + word), remaining and used quota with dollars, expiry, limits, group, masked key, menu. */
export function useTokenColumns(actions: RowActions): Column<Token>[] {
  const { t, locale } = useI18n()
  const now = Math.floor(Date.now() / 1000)
  const zone = timeZoneName()
  return [
    { header: t('common.name'), cell: (token) => <span class="token-name">{token.name}</span> },
    {
      header: t('common.status'),
      cell: (token) => {
        const state = tokenState(token, now)
        return <StatusDot tone={TONES[state]} label={t(`tokens.status.${state}`)} />
      },
    },
    { header: t('tokens.col.remaining'), numeric: true, card: 'key', cell: (token) => (token.unlimited_quota ? t('common.unlimited') : <Quota value={token.remain_quota} />) },
    { header: t('tokens.col.used'), numeric: true, cell: (token) => <Quota value={token.used_quota} /> },
    {
      header: t('tokens.col.expires'),
      cell: (token) =>
        token.expired_time === NEVER ? (
          <span class="muted">{t('common.never')}</span>
        ) : (
          <time dateTime={new Date(token.expired_time * 1000).toISOString()} title={`${formatTime(token.expired_time, locale)} (${zone})`}>
            {formatDate(token.expired_time, locale)}
          </time>
        ),
    },
    {
      header: t('tokens.col.models'),
      cell: (token) => {
        const models = splitList(token.model_limits)
        if (!token.model_limits_enabled || models.length === 0) return <span class="muted">{t('tokens.models.any')}</span>
        return (
          <span class="token-models" title={models.join(', ')}>
            {models.slice(0, SHOWN_MODELS).map((model) => (
              <span key={model} class="chip">
                {model}
              </span>
            ))}
            {models.length > SHOWN_MODELS && <span class="muted">{t('tokens.models.more', { count: models.length - SHOWN_MODELS })}</span>}
          </span>
        )
      },
    },
    { header: t('common.group'), cell: (token) => (token.group ? token.group : <span class="muted">{t('tokens.group.own')}</span>) },
    // the server masks the middle with ten stars: one ellipsis says the same in less width
    { header: t('tokens.col.key'), cell: (token) => <code class="token-key" title={token.key}>{token.key.replace(/\*+/, '…')}</code> },
    {
      header: t('common.actions'),
      class: 'col-actions',
      cell: (token) => {
        const menu: MenuAction[] = [
          { label: t('common.edit'), onSelect: () => actions.edit(token) },
          // expired or exhausted as marked by the gateway: Enable, and the server says what to change first
          { label: token.status === TOKEN_STATUS.enabled ? t('common.disable') : t('common.enable'), onSelect: () => actions.toggle(token) },
          { label: t('tokens.menu.setup'), onSelect: () => actions.setup(token) },
          { label: t('common.delete'), onSelect: () => actions.remove(token), danger: true },
        ]
        return <RowMenu name={token.name} actions={menu} />
      },
    },
  ]
}
