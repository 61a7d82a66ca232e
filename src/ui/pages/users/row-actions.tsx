import { api } from '../../api/client'
import { Role, type User } from '../../api/types'
import { useConfirm } from '../../components/dialog'
import { RowMenu, type MenuAction } from '../../components/row-menu'
import { useToast } from '../../components/toast'
import { useI18n, type MessageKey } from '../../i18n'
import { useUser } from '../../state/session'

const UserStatus = { enabled: 1, disabled: 2 } as const

export interface RowHandlers {
  onEdit(user: User): void
  onQuota(user: User): void
  onChanged(): void
  onError(error: unknown): void
}

/** Whether the logged-in user may manage this row: only users of a lower role, never oneself. */
function canManage(actor: { id: number; role: number }, user: User): boolean {
  return actor.id !== user.id && user.role < actor.role
}

/** A user's trailing menu: edit, add quota, enable/disable, promote/demote (root), delete (confirmed). */
export function UserRowMenu({ user, handlers }: { user: User; handlers: RowHandlers }) {
  const { t } = useI18n()
  const actor = useUser()
  const confirm = useConfirm()
  const toast = useToast()
  if (!canManage(actor, user)) return null
  const manage = async (action: string, done: MessageKey) => {
    try {
      await api.post('/api/user/manage', { id: user.id, action })
      toast(t(done, { name: user.username }))
      handlers.onChanged()
    } catch (error) {
      handlers.onError(error)
    }
  }
  const actions: MenuAction[] = [
    { label: t('common.edit'), onSelect: () => handlers.onEdit(user) },
    { label: t('users.action.addQuota'), onSelect: () => handlers.onQuota(user) },
    user.status === UserStatus.enabled
      ? {
          label: t('common.disable'),
          onSelect: async () => {
            if (await confirm({ message: t('users.confirm.disable', { name: user.username }), confirmLabel: t('common.disable') })) void manage('disable', 'users.toast.disabled')
          },
        }
      : { label: t('common.enable'), onSelect: () => void manage('enable', 'users.toast.enabled') },
  ]
  if (actor.role >= Role.root && user.role < Role.admin) {
    actions.push({
      label: t('users.action.promote'),
      onSelect: async () => {
        if (await confirm({ message: t('users.confirm.promote', { name: user.username }), confirmLabel: t('users.action.promote'), danger: false })) void manage('promote', 'users.toast.promoted')
      },
    })
  }
  if (user.role >= Role.admin) {
    actions.push({
      label: t('users.action.demote'),
      onSelect: async () => {
        if (await confirm({ message: t('users.confirm.demote', { name: user.username }), confirmLabel: t('users.action.demote'), danger: false })) void manage('demote', 'users.toast.demoted')
      },
    })
  }
  const reset = (path: string, question: MessageKey, done: MessageKey) => async () => {
    if (!(await confirm({ message: t(question, { name: user.username }), confirmLabel: t('common.confirm') }))) return
    try {
      await api.delete(`/api/user/${user.id}/${path}`)
      toast(t(done, { name: user.username }))
    } catch (error) {
      handlers.onError(error)
    }
  }
  actions.push({ label: t('twofa.admin.reset2fa'), onSelect: reset('2fa', 'twofa.admin.confirm2fa', 'twofa.admin.done2fa') })
  actions.push({ label: t('twofa.admin.resetPasskeys'), onSelect: reset('reset_passkey', 'twofa.admin.confirmPasskeys', 'twofa.admin.donePasskeys') })
  actions.push({
    label: t('common.delete'),
    danger: true,
    onSelect: async () => {
      if (!(await confirm({ message: t('users.confirm.delete', { name: user.username }), confirmLabel: t('common.delete') }))) return
      try {
        await api.delete(`/api/user/${user.id}`)
        toast(t('users.toast.deleted', { name: user.username }))
        handlers.onChanged()
      } catch (error) {
        handlers.onError(error)
      }
    },
  })
  return <RowMenu name={user.username} actions={actions} />
}
