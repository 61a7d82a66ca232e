import { api } from '../../api/client'
import type { Redemption } from '../../api/types'
import { useConfirm } from '../../components/dialog'
import { RowMenu, type MenuAction } from '../../components/row-menu'
import { useToast } from '../../components/toast'
import { useI18n } from '../../i18n'
import { RedemptionStatus, shortHint, type RedemptionState } from '../../lib/redemption'

/** A code's trailing menu: disable or enable an unused one, delete any (confirmed). */
export function CodeRowMenu({ code, state, onChanged, onError }: { code: Redemption; state: RedemptionState; onChanged(): void; onError(error: unknown): void }) {
  const { t } = useI18n()
  const confirm = useConfirm()
  const toast = useToast()
  const label = `${code.name} (${shortHint(code.key)})`
  const setStatus = async (status: number, done: 'redemptions.toast.disabled' | 'redemptions.toast.enabled') => {
    try {
      await api.put('/api/redemption/', { id: code.id, status })
      toast(t(done, { name: label }))
      onChanged()
    } catch (error) {
      onError(error)
    }
  }
  const actions: MenuAction[] = []
  if (state === 'unused') actions.push({ label: t('common.disable'), onSelect: () => void setStatus(RedemptionStatus.disabled, 'redemptions.toast.disabled') })
  if (state === 'disabled') actions.push({ label: t('common.enable'), onSelect: () => void setStatus(RedemptionStatus.enabled, 'redemptions.toast.enabled') })
  actions.push({
    label: t('common.delete'),
    danger: true,
    onSelect: async () => {
      if (!(await confirm({ message: t('redemptions.confirm.delete', { name: label }), confirmLabel: t('common.delete') }))) return
      try {
        await api.delete(`/api/redemption/${code.id}`)
        toast(t('redemptions.toast.deleted', { name: label }))
        onChanged()
      } catch (error) {
        onError(error)
      }
    },
  })
  return <RowMenu name={label} actions={actions} />
}
