import { useState } from 'preact/hooks'
import { Link } from 'wouter-preact'
import { api } from '../../api/client'
import { Role } from '../../api/types'
import { ErrorAlert } from '../../components/alert'
import { Button } from '../../components/button'
import { EmptyState } from '../../components/empty-state'
import { PageHeader } from '../../components/page-header'
import { useI18n } from '../../i18n'
import { checkSettings, type ChatSettings, type SettingsError } from '../../lib/chat'
import { useSession, useUser } from '../../state/session'
import { useApi } from '../../state/use-api'
import { Composer } from './composer'
import { Conversation } from './conversation'
import { SettingsPanel } from './settings-panel'
import { useChat } from './use-chat'

const MODEL_KEY = 'tollgate.playground.model'

/** Chat with any model the user can call, through the session-authenticated relay (`/pg/chat/completions`). */
export function PlaygroundPage() {
  const { t } = useI18n()
  const user = useUser()
  const { refresh } = useSession()
  const models = useApi(() => api.get<string[]>('/api/user/models'), [])
  const [settings, setSettings] = useState<ChatSettings>(() => ({ model: localStorage.getItem(MODEL_KEY) ?? '', system: '', temperature: '', maxTokens: '' }))
  const [errors, setErrors] = useState<SettingsError>({})
  const [draft, setDraft] = useState('')
  const chat = useChat({ onUnauthorized: () => void refresh(), onRefused: (message) => setDraft((current) => current || message) })

  const available = models.data ?? []
  // the remembered model when it is still offered, else the first one
  const model = available.includes(settings.model) ? settings.model : (available[0] ?? '')
  const current = { ...settings, model }
  const change = (next: Partial<ChatSettings>) => {
    if (next.model) localStorage.setItem(MODEL_KEY, next.model)
    setSettings((previous) => ({ ...previous, ...next }))
  }

  const send = (message: string): boolean => {
    const found = checkSettings(current)
    setErrors(found)
    if (Object.keys(found).length > 0) return false
    chat.send(current, message)
    return true
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
      <div class="pg-layout">
        <SettingsPanel settings={current} models={models.data} errors={errors} onChange={change} />
        <section class="pg-chat" aria-label={t('playground.conversation')}>
          <Conversation turns={chat.turns} />
          <ErrorAlert error={chat.error} />
          <Composer message={draft} onMessage={setDraft} running={chat.running} disabled={!models.data} onSend={send} onStop={chat.stop} />
        </section>
      </div>
    </>
  )
}
