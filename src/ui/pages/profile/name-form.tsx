import { useState } from 'preact/hooks'
import { api } from '../../api/client'
import type { User } from '../../api/types'
import { ErrorAlert } from '../../components/alert'
import { Button } from '../../components/button'
import { TextField } from '../../components/field'
import { useToast } from '../../components/toast'
import { useI18n } from '../../i18n'
import { checkDisplayName } from '../../lib/profile'
import { useSession, useUser } from '../../state/session'
import { useSubmit } from '../../state/use-submit'

/** The display name: checked, saved, confirmed with a toast. */
export function NameForm() {
  const { t } = useI18n()
  const user = useUser()
  const { refresh } = useSession()
  const toast = useToast()
  const [name, setName] = useState(user.display_name)
  const [invalid, setInvalid] = useState<string>()
  const { busy, failure, run } = useSubmit()

  const submit = async (event: Event) => {
    event.preventDefault()
    const problem = checkDisplayName(name)
    setInvalid(problem && t(`profile.error.${problem}`))
    if (problem) return
    await run(async () => {
      const saved = await api.put<User>('/api/user/self', { display_name: name.trim() })
      setName(saved.display_name)
      toast(t('profile.name.saved'))
      await refresh()
    })
  }

  return (
    <form class="form profile-name" onSubmit={submit} noValidate>
      <div class="profile-inline">
        <TextField label={t('profile.name.label')} value={name} onValue={setName} autocomplete="nickname" maxLength={40} hint={t('profile.name.hint')} error={invalid} />
        <Button type="submit" variant="primary" busy={busy}>
          {t('common.save')}
        </Button>
      </div>
      <ErrorAlert error={failure} />
    </form>
  )
}
