import { api } from '../../api/client'
import { ErrorAlert } from '../../components/alert'
import { Button } from '../../components/button'
import { useConfirm } from '../../components/dialog'
import { useToast } from '../../components/toast'
import { useI18n } from '../../i18n'
import { bindingLines, startOAuth, type BindingLine, type Bindings } from '../../lib/oauth-providers'
import { useSession } from '../../state/session'
import { useApi } from '../../state/use-api'
import { useSubmit } from '../../state/use-submit'
import { TelegramWidget } from '../../components/telegram-widget'
import { WeChatCodeForm } from '../../components/wechat-code'
import { useState } from 'preact/hooks'

/** The user's ways in: each provider that is on (bind it) or bound (unbind it, unless it is the last way in). */
export function BindingsCard() {
  const { t } = useI18n()
  const { status } = useSession()
  const list = useApi(() => api.get<Bindings>('/api/user/oauth/bindings'), [])
  const { busy, failure, run } = useSubmit()
  const confirm = useConfirm()
  const toast = useToast()
  const [wechatOpen, setWechatOpen] = useState(false)
  const lines = list.data ? bindingLines(status, list.data) : []
  if (list.data && lines.length === 0) return null

  const unbind = async (line: BindingLine) => {
    if (!(await confirm({ message: t('accounts.bindings.confirmUnbind', { name: line.name }), confirmLabel: t('accounts.bindings.unbind') }))) return
    await run(async () => {
      await api.delete(`/api/user/bindings/${encodeURIComponent(line.id)}`)
      toast(t('accounts.bindings.unbound', { name: line.name }))
      list.reload()
    })
  }
  const bindWeChat = async (code: string) => {
    await api.post('/api/oauth/wechat/bind', { code })
    setWechatOpen(false)
    toast(t('messenger.wechat.bound', { name: 'WeChat' }))
    list.reload()
  }
  return (
    <section class="card" aria-labelledby="profile-bindings-title">
      <h2 id="profile-bindings-title">{t('accounts.bindings.title')}</h2>
      <p class="muted">{t('accounts.bindings.lead')}</p>
      {list.data && !list.data.has_password && <p class="muted">{t('accounts.bindings.noPassword')}</p>}
      <ErrorAlert error={list.error} />
      <ul class="binding-list">
        {lines.map((line) => (
          <li key={line.id}>
            <span>{line.name}</span>{' '}
            <span class="muted">{line.externalId === undefined ? t('accounts.bindings.notBound') : t('accounts.bindings.boundAs', { id: line.externalId })}</span>{' '}
            {line.canBind && line.kind === 'telegram' && (
              <TelegramWidget botName={status?.telegram_bot_name ?? ''} script={status?.telegram_widget_url ?? ''} authUrl={`${location.origin}/oauth/telegram/bind`} />
            )}
            {line.canBind && line.kind === 'wechat' && (
              <Button variant="secondary" aria-expanded={wechatOpen} aria-label={t('accounts.bindings.bindName', { name: line.name })} onClick={() => setWechatOpen(!wechatOpen)}>
                {t('accounts.bindings.bind')}
              </Button>
            )}
            {line.canBind && line.kind === 'wechat' && wechatOpen && <WeChatCodeForm qrcode={status?.wechat_qrcode ?? ''} submitLabel={t('messenger.wechat.bind')} onCode={bindWeChat} />}
            {line.canBind && line.kind === 'redirect' && (
              <Button variant="secondary" busy={busy} aria-label={t('accounts.bindings.bindName', { name: line.name })} onClick={() => run(() => startOAuth(line.route, 'bind'))}>
                {t('accounts.bindings.bind')}
              </Button>
            )}
            {line.externalId !== undefined && (
              <Button
                variant="ghost"
                disabled={!line.canUnbind || busy}
                title={line.canUnbind ? undefined : t('accounts.bindings.lastWayIn')}
                aria-label={t('accounts.bindings.unbindName', { name: line.name })}
                onClick={() => unbind(line)}
              >
                {t('accounts.bindings.unbind')}
              </Button>
            )}
          </li>
        ))}
      </ul>
      <ErrorAlert error={failure} />
    </section>
  )
}
