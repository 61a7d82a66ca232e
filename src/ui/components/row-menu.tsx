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
    placeMenu(ref.current)
    ref.current?.querySelector<HTMLButtonElement>('[role=menuitem]')?.focus({ preventScroll: true })
    // the menu floats over the page (a table's scroll box would clip it): it closes when anything scrolls
    const dismiss = () => setOpen(false)
    window.addEventListener('scroll', dismiss, true)
    window.addEventListener('resize', dismiss)
    return () => {
      document.removeEventListener('mousedown', close)
      document.removeEventListener('keydown', close)
      window.removeEventListener('scroll', dismiss, true)
      window.removeEventListener('resize', dismiss)
    }
  }, [open])
  return (
    <div class="row-menu" ref={ref}>
      <button type="button" class="btn btn-ghost" aria-haspopup="menu" aria-expanded={open} aria-label={t('common.actionsFor', { name })} onClick={() => setOpen(!open)}>
        ⋯
      </button>
      {open && (
        <div class="menu menu-floating" role="menu">
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

/** Put the open menu under its button (above it when there is no room below), in viewport coordinates. */
function placeMenu(root: HTMLDivElement | null): void {
  const button = root?.querySelector<HTMLElement>('[aria-haspopup]')
  const menu = root?.querySelector<HTMLElement>('[role=menu]')
  if (!button || !menu) return
  const at = button.getBoundingClientRect()
  const height = menu.offsetHeight
  const below = window.innerHeight - at.bottom
  const top = below < height + 8 && at.top > height + 8 ? at.top - height - 4 : at.bottom + 4
  menu.style.setProperty('top', `${Math.round(top)}px`)
  menu.style.setProperty('left', `${Math.round(Math.max(8, at.right - menu.offsetWidth))}px`)
}
