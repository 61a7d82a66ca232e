import { useState } from 'preact/hooks'
import { api, ApiError } from '../../api/client'
import { ErrorAlert } from '../../components/alert'
import { Button } from '../../components/button'
import { Modal } from '../../components/dialog'
import { TextField } from '../../components/field'
import { useI18n } from '../../i18n'
import { verifyWithPasskey } from '../../lib/passkey'
import { useSubmit } from '../../state/use-submit'

type Action = () => Promise<void>

/**
 * Secure verification around a sensitive action: run it; when the server asks for a fresh check, ask for the
 * password, a 2FA code or a passkey, verify (POST /api/verify), and run it again.
 */
export function useVerified() {
  const [pending, setPending] = useState<Action>()
  const guard = async (action: Action) => {
    try {
      await action()
    } catch (error) {
      if (error instanceof ApiError && error.facts.code === 'secure_verification_required') setPending(() => action)
      else throw error
    }
  }
  const dialog = pending ? <VerifyDialog onClose={() => setPending(undefined)} onVerified={async () => (setPending(undefined), await pending())} /> : null
  return { guard, dialog }
}

function VerifyDialog({ onClose, onVerified }: { onClose(): void; onVerified(): Promise<void> }) {
  const { t } = useI18n()
  const [password, setPassword] = useState('')
  const [code, setCode] = useState('')
  const { busy, failure, run } = useSubmit()
  const submit = (event: Event) => {
    event.preventDefault()
    void run(async () => {
      await api.post('/api/verify', code.trim() ? { method: '2fa', code: code.trim() } : { method: 'password', password })
      await onVerified()
    })
  }
  const passkey = () =>
    run(async () => {
      await verifyWithPasskey()
      await onVerified()
    })
  return (
    <Modal title={t('twofa.verify.title')} onClose={onClose}>
      <form class="form" onSubmit={submit} noValidate>
        <p class="muted">{t('twofa.verify.lead')}</p>
        <TextField label={t('twofa.verify.password')} type="password" value={password} onValue={setPassword} autocomplete="current-password" />
        <TextField label={t('twofa.verify.code')} value={code} onValue={setCode} autocomplete="one-time-code" />
        <ErrorAlert error={failure} />
        <div class="dialog-actions">
          <Button variant="ghost" onClick={passkey}>
            {t('twofa.login.passkey')}
          </Button>
          <Button type="submit" variant="primary" busy={busy}>
            {t('twofa.verify.submit')}
          </Button>
        </div>
      </form>
    </Modal>
  )
}
