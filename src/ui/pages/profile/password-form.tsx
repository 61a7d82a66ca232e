import { useState } from 'preact/hooks'
import { api } from '../../api/client'
import { ErrorAlert, Notice } from '../../components/alert'
import { Button } from '../../components/button'
import { TextField } from '../../components/field'
import { useToast } from '../../components/toast'
import { useI18n } from '../../i18n'
import { checkPasswordChange, type PasswordChange, type PasswordChangeError } from '../../lib/profile'
import { useSession } from '../../state/session'
import { useSubmit } from '../../state/use-submit'

const EMPTY: PasswordChange = { current: '', next: '', confirm: '' }

/** A new password needs the current one; the server then revokes every other session (this one gets a new cookie). */
export function PasswordForm() {
  const { t } = useI18n()
  const { refresh } = useSession()
  const toast = useToast()
  const [values, setValues] = useState<PasswordChange>(EMPTY)
  const [errors, setErrors] = useState<Partial<Record<keyof PasswordChange, PasswordChangeError>>>({})
  const { busy, failure, run } = useSubmit()
  const set = (key: keyof PasswordChange) => (value: string) => setValues((previous) => ({ ...previous, [key]: value }))
  const message = (error: PasswordChangeError | undefined) => (error ? t(`profile.error.${error}`) : undefined)

  const submit = async (event: Event) => {
    event.preventDefault()
    const found = checkPasswordChange(values)
    setErrors(found)
    if (Object.keys(found).length > 0) return
    await run(async () => {
      await api.put('/api/user/self', { original_password: values.current, password: values.next })
      setValues(EMPTY)
      toast(t('profile.password.changed'))
      await refresh()
    })
  }

  return (
    <section class="card" aria-labelledby="profile-password-title">
      <h2 id="profile-password-title">{t('profile.password.title')}</h2>
      <Notice>{t('profile.password.note')}</Notice>
      <form class="form" onSubmit={submit} noValidate>
        <TextField label={t('profile.password.current')} type="password" value={values.current} onValue={set('current')} autocomplete="current-password" required error={message(errors.current)} />
        <TextField
          label={t('profile.password.new')}
          type="password"
          value={values.next}
          onValue={set('next')}
          autocomplete="new-password"
          required
          hint={t('profile.password.hint')}
          error={message(errors.next)}
        />
        <TextField label={t('profile.password.confirm')} type="password" value={values.confirm} onValue={set('confirm')} autocomplete="new-password" required error={message(errors.confirm)} />
        <ErrorAlert error={failure} />
        <div>
          <Button type="submit" variant="primary" busy={busy}>
            {t('profile.password.submit')}
          </Button>
        </div>
      </form>
    </section>
  )
}
