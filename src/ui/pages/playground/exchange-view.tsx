import { useI18n } from '../../i18n'
import { bodyForView } from '../../lib/chat'
import type { Exchange } from './use-chat'

/** The last request's JSON as sent (images cut short) and the stream's events as they arrived. */
export function ExchangeView({ exchange }: { exchange: Exchange | undefined }) {
  const { t } = useI18n()
  return (
    <details class="card pg-exchange">
      <summary>{t('playground.exchange')}</summary>
      {exchange ? (
        <>
          <h3>{t('playground.exchange.request')}</h3>
          <pre class="pg-json">{bodyForView(exchange.body)}</pre>
          <h3>{t('playground.exchange.response', { status: exchange.status ?? '…', count: exchange.events.length })}</h3>
          <pre class="pg-json">{exchange.events.map((event) => `data: ${event}`).join('\n')}</pre>
        </>
      ) : (
        <p class="muted">{t('playground.exchange.none')}</p>
      )}
    </details>
  )
}
