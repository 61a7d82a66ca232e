import type { ComponentChildren } from 'preact'
import { useState } from 'preact/hooks'
import { ErrorAlert } from '../../components/alert'
import { Button } from '../../components/button'
import { TextField } from '../../components/field'
import { useI18n } from '../../i18n'
import { checkCredentials, type CredentialError } from '../../lib/validate'
import { useSubmit } from '../../state/use-submit'

interface Credentials {
  username: string
  password: string
}

interface Props {
  submitLabel: string
  /** ask for the password twice (setup, register) */
  confirm?: boolean
  /** extra fields between the password and the button */
  children?: ComponentChildren
  /** login only checks presence; setup and register check the server's rules */
  strict?: boolean
  onSubmit(credentials: Credentials): Promise<void>
}

/** Username and password (twice when creating), checked before sending, the server's refusal shown as an alert. */
export function CredentialsForm({ submitLabel, confirm, children, strict, onSubmit }: Props) {
  const { t } = useI18n()
  const [username, setUsername] = useState('')
  const [password, setPassword] = useState('')
  const [confirmation, setConfirmation] = useState('')
  const [errors, setErrors] = useState<Partial<Record<'username' | 'password' | 'confirm', CredentialError>>>({})
  const { busy, failure, run } = useSubmit()
  const message = (error: CredentialError | undefined) => (error ? t(`auth.error.${error}`) : undefined)

  const submit = async (event: Event) => {
    event.preventDefault()
    const found = checkCredentials({ username, password, confirm: confirm ? confirmation : undefined })
    if (!strict) {
      if (found.username === 'usernameFormat') delete found.username
      if (found.password === 'passwordLength') delete found.password
    }
    setErrors(found)
    if (Object.keys(found).length > 0) return
    await run(async () => {
      await onSubmit({ username, password })
    })
  }

  return (
    <form class="form" onSubmit={submit} noValidate>
      <TextField label={t('auth.username')} value={username} onValue={setUsername} autocomplete="username" required error={message(errors.username)} />
      <TextField
        label={t('auth.password')}
        type="password"
        value={password}
        onValue={setPassword}
        autocomplete={confirm ? 'new-password' : 'current-password'}
        required
        hint={strict ? t('auth.passwordHint') : undefined}
        error={message(errors.password)}
      />
      {confirm && (
        <TextField label={t('auth.confirmPassword')} type="password" value={confirmation} onValue={setConfirmation} autocomplete="new-password" required error={message(errors.confirm)} />
      )}
      {children}
      <ErrorAlert error={failure} />
      <Button type="submit" variant="primary" busy={busy}>
        {submitLabel}
      </Button>
    </form>
  )
}
