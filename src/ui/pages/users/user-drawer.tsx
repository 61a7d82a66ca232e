import { useId, useState } from 'preact/hooks'
import { api } from '../../api/client'
import { Role, type User } from '../../api/types'
import { ErrorAlert } from '../../components/alert'
import { Button } from '../../components/button'
import { Drawer } from '../../components/drawer'
import { SelectField, TextField } from '../../components/field'
import { useToast } from '../../components/toast'
import { useI18n } from '../../i18n'
import { checkUserFields, createUserBody, editUserBody, quotaToDollarText, type UserFieldError, type UserFieldErrors, type UserFields } from '../../lib/user-form'
import { useSession, useUser } from '../../state/session'
import { DollarField } from '../../components/dollar-field'
import { useGroups } from './groups'
import { UserBindings } from './user-bindings'
import { GrantPlan } from './grant-plan'

/** New user, or edit one (`user`): display name, password (empty = unchanged), group, balance, role. */
export function UserDrawer({ user, onClose, onSaved }: { user?: User; onClose(): void; onSaved(): void }) {
  const { t } = useI18n()
  const toast = useToast()
  const actor = useUser()
  const perUnit = useSession().status?.quota_per_unit ?? 500_000
  const creating = !user
  const [fields, setFields] = useState<UserFields>({
    username: user?.username ?? '',
    displayName: user?.display_name ?? '',
    password: '',
    role: String(user?.role ?? Role.user),
    group: user?.group ?? 'default',
    dollars: user ? quotaToDollarText(user.quota, perUnit) : '0',
  })
  const [errors, setErrors] = useState<UserFieldErrors>({})
  const [failure, setFailure] = useState<unknown>()
  const [busy, setBusy] = useState(false)
  const groups = useGroups()
  const formId = useId()
  const groupsId = useId()
  const set = (name: keyof UserFields) => (value: string) => {
    setFields((previous) => ({ ...previous, [name]: value }))
    setErrors((previous) => ({ ...previous, [name]: undefined }))
  }
  const message = (error: UserFieldError | undefined) => (error ? t(`users.error.${error}`) : undefined)
  // only root hands out the admin role, and root's own role is not for editing
  const canSetRole = actor.role >= Role.root && (!user || user.role < Role.root)

  const submit = async (event: Event) => {
    event.preventDefault()
    const found = checkUserFields(fields, creating)
    setErrors(found)
    if (Object.keys(found).length > 0) return
    setBusy(true)
    setFailure(undefined)
    try {
      if (user) {
        const body = editUserBody(user, { ...fields, role: canSetRole ? fields.role : '' }, perUnit)
        await api.put('/api/user/', body)
        toast(t('users.toast.saved', { name: user.username }))
      } else {
        await api.post('/api/user/', createUserBody({ ...fields, role: canSetRole ? fields.role : '' }, perUnit))
        toast(t('users.toast.created', { name: fields.username.trim() }))
      }
      onSaved()
    } catch (error) {
      setFailure(error)
    } finally {
      setBusy(false)
    }
  }

  return (
    <Drawer
      title={user ? t('users.edit.title', { name: user.username }) : t('users.create.title')}
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button type="submit" form={formId} variant="primary" busy={busy}>
            {user ? t('users.edit.submit') : t('users.create.submit')}
          </Button>
        </>
      }
    >
      <form id={formId} class="form" onSubmit={submit} noValidate>
        {creating && (
          <TextField label={t('users.field.username')} value={fields.username} onValue={set('username')} autocomplete="off" required hint={t('users.hint.username')} error={message(errors.username)} />
        )}
        <TextField label={t('users.field.displayName')} value={fields.displayName} onValue={set('displayName')} autocomplete="off" hint={t('users.hint.displayName')} error={message(errors.displayName)} />
        <TextField
          label={t('users.field.password')}
          type="password"
          value={fields.password}
          onValue={set('password')}
          autocomplete="new-password"
          required={creating}
          hint={creating ? t('users.hint.password') : t('users.hint.passwordUnchanged')}
          error={message(errors.password)}
        />
        {canSetRole && (
          <SelectField
            label={t('users.field.role')}
            value={fields.role}
            onValue={set('role')}
            options={[
              { value: String(Role.user), label: t('users.role.1') },
              { value: String(Role.admin), label: t('users.role.10') },
            ]}
          />
        )}
        <TextField label={t('users.field.group')} value={fields.group} onValue={set('group')} list={groupsId} autocomplete="off" required error={message(errors.group)} />
        <datalist id={groupsId}>
          {groups.map((group) => (
            <option key={group} value={group} />
          ))}
        </datalist>
        <DollarField label={t('users.field.quota')} value={fields.dollars} onValue={set('dollars')} error={message(errors.dollars)} />
        <ErrorAlert error={failure} />
      </form>
      {user && <UserBindings userId={user.id} username={user.username} />}
      {user && <GrantPlan userId={user.id} />}
    </Drawer>
  )
}
