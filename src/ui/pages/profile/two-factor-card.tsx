import { useState } from 'preact/hooks'
import { api } from '../../api/client'
import { ErrorAlert } from '../../components/alert'
import { Button } from '../../components/button'
import { CopyButton } from '../../components/copy-button'
import { TextField } from '../../components/field'
import { useI18n } from '../../i18n'
import { useApi } from '../../state/use-api'
import { useSubmit } from '../../state/use-submit'
import { BackupCodes, QrCode } from './two-factor-parts'

interface Status {
  enabled: boolean
  backup_codes_remaining?: number
}
interface Setup {
  secret: string
  qr_code_data: string
  backup_codes: string[]
}

/** TOTP on the profile: enrol (QR code, the secret as text, backup codes once), new codes, turn off. */
export function TwoFactorCard() {
  const { t } = useI18n()
  const status = useApi(() => api.get<Status>('/api/user/2fa/status'), [])
  const [setup, setSetup] = useState<Setup>()
  const [codes, setCodes] = useState<string[]>()
  const [code, setCode] = useState('')
  const { busy, failure, run } = useSubmit()
  const act = (send: () => Promise<void>) =>
    run(async () => {
      await send()
      setCode('')
      status.reload()
    })
  const enabled = status.data?.enabled === true
  return (
    <section class="card" aria-labelledby="profile-2fa-title">
      <h2 id="profile-2fa-title">{t('twofa.card.title')}</h2>
      <p class="muted">{t('twofa.card.lead')}</p>
      {status.data && <p>{enabled ? t('twofa.card.on', { count: status.data.backup_codes_remaining ?? 0 }) : t('twofa.card.off')}</p>}
      {codes && <BackupCodes codes={codes} />}
      {!enabled && !setup && (
        <Button variant="secondary" busy={busy} onClick={() => act(async () => setSetup(await api.post<Setup>('/api/user/2fa/setup')))}>
          {t('twofa.card.setup')}
        </Button>
      )}
      {!enabled && setup && (
        <>
          <p>{t('twofa.card.scan')}</p>
          <QrCode text={setup.qr_code_data} />
          <div class="key-box">
            <code aria-label={t('twofa.card.secret')}>{setup.secret}</code>
            <CopyButton text={setup.secret} name={t('twofa.card.copySecret')} />
          </div>
          <BackupCodes codes={setup.backup_codes} />
        </>
      )}
      {(enabled || setup) && <TextField label={enabled ? t('twofa.card.codeForAction') : t('twofa.card.code')} value={code} onValue={setCode} autocomplete="one-time-code" />}
      <ErrorAlert error={failure} />
      {!enabled && setup && (
        <Button variant="primary" busy={busy} onClick={() => act(async () => (await api.post('/api/user/2fa/enable', { code: code.trim() }), setSetup(undefined)))}>
          {t('twofa.card.enable')}
        </Button>
      )}
      {enabled && (
        <div class="dialog-actions">
          <Button variant="secondary" busy={busy} onClick={() => act(async () => setCodes((await api.post<{ backup_codes: string[] }>('/api/user/2fa/backup_codes', { code: code.trim() })).backup_codes))}>
            {t('twofa.card.regenerate')}
          </Button>
          <Button variant="danger" busy={busy} onClick={() => act(async () => (await api.post('/api/user/2fa/disable', { code: code.trim() }), setCodes(undefined)))}>
            {t('twofa.card.disable')}
          </Button>
        </div>
      )}
    </section>
  )
}
