import { useI18n } from '../i18n'
import { MenuButton, type MenuAction } from './menu'

export type { MenuAction } from './menu'

/** A row's trailing actions: a button named "Actions for <row>" opening a menu of items. */
export function RowMenu({ name, actions }: { name: string; actions: readonly MenuAction[] }) {
  const { t } = useI18n()
  return (
    <MenuButton label={t('common.actionsFor', { name })} actions={actions} buttonClass="btn btn-ghost row-menu-button">
      ⋯
    </MenuButton>
  )
}
