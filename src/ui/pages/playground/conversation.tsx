import { useEffect, useRef } from 'preact/hooks'
import { Button } from '../../components/button'
import { CopyButton } from '../../components/copy-button'
import { Markdown } from '../../components/markdown'
import { useQuotaFormat } from '../../components/quota'
import { useI18n } from '../../i18n'
import { formatNumber } from '../../lib/format'
import type { Turn } from './use-chat'

interface Props {
  turns: readonly Turn[]
  /** ask the last question again; undefined while an answer streams */
  onRegenerate?(): void
}

/** The messages, the answer streaming into the last one; a polite live log that keeps the newest in view. */
export function Conversation({ turns, onRegenerate }: Props) {
  const { t } = useI18n()
  const ref = useRef<HTMLDivElement>(null)
  // follow the newest text unless the reader scrolled up to read something earlier
  const follow = useRef(true)
  const last = turns[turns.length - 1]
  useEffect(() => {
    follow.current = true // a new message: back to the newest
  }, [turns.length])
  useEffect(() => {
    const log = ref.current
    if (log && follow.current) log.scrollTop = log.scrollHeight
  }, [turns.length, last?.content, last?.reasoning, last?.state, last?.charge])
  const onScroll = (event: Event) => {
    const log = event.currentTarget as HTMLDivElement
    follow.current = log.scrollHeight - log.scrollTop - log.clientHeight < 48
  }
  return (
    <div class="pg-log" role="log" aria-live="polite" aria-label={t('playground.conversation')} ref={ref} onScroll={onScroll}>
      {turns.length === 0 && <p class="pg-start muted">{t('playground.start')}</p>}
      {turns.map((turn, index) =>
        turn.role === 'user' ? <UserTurn key={turn.id} turn={turn} /> : <AnswerTurn key={turn.id} turn={turn} onRegenerate={index === turns.length - 1 ? onRegenerate : undefined} />,
      )}
    </div>
  )
}

function UserTurn({ turn }: { turn: Turn }) {
  const { t } = useI18n()
  return (
    <article class="pg-turn pg-turn-user">
      <div class="pg-who">{t('playground.you')}</div>
      <div class="pg-text">{turn.content}</div>
      {turn.images && (
        <div class="pg-images">
          {turn.images.map((url, i) => (
            <img key={i} src={url} alt={t('playground.image', { n: i + 1 })} />
          ))}
        </div>
      )}
    </article>
  )
}

function AnswerTurn({ turn, onRegenerate }: { turn: Turn; onRegenerate?(): void }) {
  const { t } = useI18n()
  const streaming = turn.state === 'streaming'
  return (
    <article class="pg-turn pg-turn-assistant" aria-busy={streaming ? true : undefined}>
      <div class="pg-who">{turn.model}</div>
      {turn.reasoning && (
        <details class="pg-reasoning">
          <summary>{t('playground.thinking')}</summary>
          <div class="pg-text">{turn.reasoning}</div>
        </details>
      )}
      {turn.content ? <Markdown text={turn.content} class="pg-answer" /> : streaming && <p class="muted pg-waiting">{t('playground.waiting')}</p>}
      {!streaming && (
        <div class="pg-turn-actions">
          {turn.content && <CopyButton text={turn.content} name={t('playground.copyAnswer')} />}
          {onRegenerate && (
            <Button variant="secondary" onClick={onRegenerate}>
              {t('playground.regenerate')}
            </Button>
          )}
          <TurnFooter turn={turn} />
        </div>
      )}
    </article>
  )
}

function TurnFooter({ turn }: { turn: Turn }) {
  const { t, locale } = useI18n()
  const format = useQuotaFormat()
  const parts: string[] = []
  if (turn.state === 'stopped') parts.push(t('playground.stopped'))
  if (turn.state === 'failed') parts.push(t('playground.failed'))
  if (turn.usage) parts.push(t('playground.usage', { prompt: formatNumber(turn.usage.prompt_tokens, locale), completion: formatNumber(turn.usage.completion_tokens, locale) }))
  const charge = turn.charge
  if (charge?.state === 'pending') parts.push(t('playground.costPending'))
  if (charge?.state === 'exact') parts.push(t('playground.cost', { quota: format(charge.quota) }))
  if (charge?.state === 'unknown') parts.push(t('playground.costUnknown'))
  if (parts.length === 0) return null
  return <p class="pg-meta">{parts.join(' · ')}</p>
}
