import { useState } from 'preact/hooks'
import { Link } from 'wouter-preact'
import { api } from '../../api/client'
import { Role } from '../../api/types'
import { ErrorAlert } from '../../components/alert'
import { Button } from '../../components/button'
import { EmptyState } from '../../components/empty-state'
import { UnpricedWarning } from '../../components/model-choice'
import { PageHeader } from '../../components/page-header'
import { useI18n } from '../../i18n'
import { checkSettings, type ChatSettings, type SettingsError } from '../../lib/chat'
import { chooseModel, noneHasPrice } from '../../lib/model-choice'
import { useModelPrices, useRememberedModel } from '../../state/model-choice'
import { useSession, useUser } from '../../state/session'
import { useApi } from '../../state/use-api'
import { Composer } from './composer'
import { Conversation } from './conversation'
import { ExchangeView } from './exchange-view'
import { SettingsPanel } from './settings-panel'
import { useChat } from './use-chat'

const MODEL_KEY = 'tollgate.playground.model'

/** Chat with any model the user can call, through the session-authenticated relay (`/pg/chat/completions`). */
export function PlaygroundPage() {
  const { t } = useI18n()
  const user = useUser()
  const { refresh } = useSession()
  const models = useApi(() => api.get<string[]>('/api/user/models'), [])
  const { prices } = useModelPrices()
  const { remembered, picked, remember } = useRememberedModel(MODEL_KEY)
  const [settings, setSettings] = useState<Omit<ChatSettings, 'model'>>({ system: '', temperature: '', maxTokens: '' })
  const [errors, setErrors] = useState<SettingsError>({})
  const [draft, setDraft] = useState('')
  const [images, setImages] = useState<string[]>([])
  const chat = useChat({ onUnauthorized: () => void refresh(), onRefused: (message) => setDraft((current) => current || message) })

  const available = models.data ?? []
  // the model picked here, else the remembered one while still offered and priced, else one that can chat and has a price
  const model = chooseModel(available, { prices, remembered, picked }) ?? ''
  const current = { ...settings, model }
  const change = ({ model: picked, ...next }: Partial<ChatSettings>) => {
    if (picked) remember(picked)
    setSettings((previous) => ({ ...previous, ...next }))
  }

  const send = (message: string): boolean => {
    const found = checkSettings(current)
    setErrors(found)
    if (Object.keys(found).length > 0) return false
    chat.send(current, message, images)
    setImages([])
    return true
  }

  const regenerate = () => {
    const found = checkSettings(current)
    setErrors(found)
    if (Object.keys(found).length === 0) chat.regenerate(current)
  }

  if (models.data && models.data.length === 0) {
    return (
      <>
        <PageHeader title={t('nav.playground')} lead={t('playground.lead')} />
        <EmptyState
          message={t('playground.noModels')}
          action={
            user.role >= Role.admin ? (
              <Link href="/channels" class="btn btn-primary">
                {t('playground.addChannel')}
              </Link>
            ) : undefined
          }
        />
      </>
    )
  }

  return (
    <>
      <PageHeader
        title={t('nav.playground')}
        lead={t('playground.lead')}
        actions={
          <Button disabled={chat.turns.length === 0 && !chat.error} onClick={chat.clear}>
            {t('playground.clear')}
          </Button>
        }
      />
      <ErrorAlert error={models.error} />
      {noneHasPrice(available, prices) && <UnpricedWarning />}
      <div class="pg-layout">
        <SettingsPanel settings={current} models={models.data} prices={prices} errors={errors} onChange={change} />
        <section class="pg-chat" aria-label={t('playground.conversation')}>
          <Conversation turns={chat.turns} onRegenerate={chat.running ? undefined : regenerate} />
          <ErrorAlert error={chat.error} />
          <Composer message={draft} onMessage={setDraft} running={chat.running} disabled={!models.data} onSend={send} onStop={chat.stop} images={images} onImages={setImages} />
          <ExchangeView exchange={chat.exchange} />
        </section>
      </div>
    </>
  )
}
