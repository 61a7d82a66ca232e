import { useState } from 'preact/hooks'
import { api } from '../../api/client'
import { ErrorAlert } from '../../components/alert'
import { Button } from '../../components/button'
import { CopyButton } from '../../components/copy-button'
import { Modal, useConfirm } from '../../components/dialog'
import { useI18n } from '../../i18n'
import { useSession } from '../../state/session'
import { useSubmit } from '../../state/use-submit'
import { useVerified } from './verify-dialog'

/** The management API's access token: asked first (it replaces the previous one), then shown once in a dialog. */
export function AccessToken() {
  const { t } = useI18n()
  const { status } = useSession()
  const confirm = useConfirm()
  const [token, setToken] = useState<string>()
  const { busy, failure, run } = useSubmit()
  const { guard, dialog } = useVerified()

  const create = async () => {
    const ok = await confirm({ message: t('profile.token.confirm'), confirmLabel: t('profile.token.confirmLabel') })
    if (!ok) return
    await run(() => guard(async () => setToken(await api.get<string>('/api/user/token'))))
  }

  const origin = (status?.server_address?.trim() || location.origin).replace(/\/+$/, '')
  return (
    <section class="card" aria-labelledby="profile-token-title">
      <h2 id="profile-token-title">{t('profile.token.title')}</h2>
      <p class="muted">{t('profile.token.lead')}</p>
      <ErrorAlert error={failure} />
      <Button variant="secondary" busy={busy} onClick={create}>
        {t('profile.token.create')}
      </Button>
      {dialog}
      {token && (
        <Modal title={t('profile.token.modalTitle')} onClose={() => setToken(undefined)}>
          <p class="alert alert-info">{t('profile.token.once')}</p>
          <div class="key-box">
            <code>{token}</code>
            <CopyButton text={token} name={t('profile.token.copy')} />
          </div>
          <h3 class="profile-example-title">{t('profile.token.example')}</h3>
          <pre class="code-block">{`curl -H "Authorization: Bearer ${token}" ${origin}/api/user/self`}</pre>
          <div class="dialog-actions">
            <Button variant="primary" onClick={() => setToken(undefined)}>
              {t('profile.token.done')}
            </Button>
          </div>
        </Modal>
      )}
    </section>
  )
}
