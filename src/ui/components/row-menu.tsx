import { useEffect, useRef, useState } from 'preact/hooks'
import { useI18n } from '../i18n'

export interface MenuAction {
  label: string
  onSelect(): void
  danger?: boolean
}

/** A row's trailing actions: a button named "Actions for <row>" opening a menu of items. */
export function RowMenu({ name, actions }: { name: string; actions: readonly MenuAction[] }) {
  const { t } = useI18n()
  const [open, setOpen] = useState(false)
  const ref = useRef<HTMLDivElement>(null)
  useEffect(() => {
    if (!open) return
    const close = (event: Event) => {
      if (event instanceof KeyboardEvent ? event.key === 'Escape' : !ref.current?.contains(event.target as Node)) setOpen(false)
    }
    document.addEventListener('mousedown', close)
    document.addEventListener('keydown', close)
    ref.current?.querySelector<HTMLButtonElement>('[role=menuitem]')?.focus()
    return () => {
      document.removeEventListener('mousedown', close)
      document.removeEventListener('keydown', close)
    }
  }, [open])
  return (
    <div class="row-menu" ref={ref}>
      <button type="button" class="btn btn-ghost" aria-haspopup="menu" aria-expanded={open} aria-label={t('common.actionsFor', { name })} onClick={() => setOpen(!open)}>
        ⋯
      </button>
      {open && (
        <div class="menu" role="menu">
          {actions.map((action) => (
            <button
              key={action.label}
              type="button"
              role="menuitem"
              class={action.danger ? 'menu-item danger' : 'menu-item'}
              onClick={() => {
                setOpen(false)
                action.onSelect()
              }}
            >
              {action.label}
            </button>
          ))}
        </div>
      )}
    </div>
  )
}
