import { useState } from 'preact/hooks'
import { api } from '../../api/client'
import { ErrorAlert } from '../../components/alert'
import { Button } from '../../components/button'
import { TextField } from '../../components/field'
import { useToast } from '../../components/toast'
import { useI18n } from '../../i18n'
import { formatTime } from '../../lib/format'
import { addPasskey } from '../../lib/passkey'
import { useApi } from '../../state/use-api'
import { useSubmit } from '../../state/use-submit'
import { useVerified } from './verify-dialog'

interface Passkey {
  id: number
  name: string
  created_at: number
  last_used_at: number | null
}

/** The user's passkeys: list, add (after a fresh check), remove (after a fresh check). */
export function PasskeysCard() {
  const { t, locale } = useI18n()
  const toast = useToast()
  const list = useApi(() => api.get<{ passkeys: Passkey[] }>('/api/user/passkey'), [])
  const [name, setName] = useState('')
  const { busy, failure, run } = useSubmit()
  const { guard, dialog } = useVerified()
  const act = (action: () => Promise<void>, done: string) =>
    run(() =>
      guard(async () => {
        await action()
        toast(done)
        list.reload()
      }),
    )
  const label = (key: Passkey) => key.name || t('twofa.passkeys.unnamed', { id: key.id })
  return (
    <section class="card" aria-labelledby="profile-passkeys-title">
      <h2 id="profile-passkeys-title">{t('twofa.passkeys.title')}</h2>
      <p class="muted">{t('twofa.passkeys.lead')}</p>
      {list.data && list.data.passkeys.length === 0 && <p>{t('twofa.passkeys.none')}</p>}
      <ul class="passkey-list">
        {list.data?.passkeys.map((key) => (
          <li key={key.id}>
            <span>{label(key)}</span>{' '}
            <span class="muted">{key.last_used_at ? t('twofa.passkeys.lastUsed', { when: formatTime(key.last_used_at, locale) }) : t('twofa.passkeys.neverUsed')}</span>{' '}
            <Button variant="ghost" aria-label={t('twofa.passkeys.remove', { name: label(key) })} onClick={() => act(() => api.delete(`/api/user/passkey?id=${key.id}`), t('twofa.passkeys.removed'))}>
              ×
            </Button>
          </li>
        ))}
      </ul>
      <TextField label={t('twofa.passkeys.name')} value={name} onValue={setName} maxLength={64} />
      <ErrorAlert error={failure} />
      <Button variant="secondary" busy={busy} onClick={() => act(async () => (await addPasskey(name.trim()), setName('')), t('twofa.passkeys.added'))}>
        {t('twofa.passkeys.add')}
      </Button>
      {dialog}
    </section>
  )
}
