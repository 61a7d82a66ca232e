import type { ComponentChildren } from 'preact'
import { useId, useLayoutEffect, useRef, useState } from 'preact/hooks'

export interface MenuAction {
  label: string
  onSelect(): void
  danger?: boolean
  /** a choice among several (language, theme): shown as a radio item, checked or not */
  checked?: boolean
  /** the item's language, when it names one */
  lang?: string
}

interface Props {
  /** the button's accessible name */
  label: string
  /** what the button shows (an icon, a word); the label when absent */
  children?: ComponentChildren
  actions: readonly MenuAction[]
  buttonClass?: string
  /** the menu's own name, when the button's says more (its current value) */
  menuLabel?: string
}

/**
 * A menu button (WAI-ARIA menu pattern): the button opens a list of items, arrows/Home/End move between them,
 * Escape closes and gives focus back, a click outside or a scroll closes. The open menu sits in the top layer
 * (`popover`), so no table cell, sticky column or pager below it can paint over it, whatever their stacking.
 */
export function MenuButton({ label, children, actions, buttonClass = 'btn btn-ghost', menuLabel = label }: Props) {
  const [open, setOpen] = useState(false)
  const id = useId()
  const root = useRef<HTMLDivElement>(null)
  const button = useRef<HTMLButtonElement>(null)
  const menu = useRef<HTMLDivElement>(null)
  const close = (refocus: boolean) => {
    setOpen(false)
    if (refocus) button.current?.focus()
  }
  useLayoutEffect(() => {
    if (!open || !menu.current || !button.current) return
    showInTopLayer(menu.current)
    placeMenu(button.current, menu.current)
    const items = menuItems(menu.current)
    ;(items.find((item) => item.getAttribute('aria-checked') === 'true') ?? items[0])?.focus({ preventScroll: true })
    const outside = (event: Event) => {
      if (!root.current?.contains(event.target as Node)) close(false)
    }
    // the menu floats over the page in viewport coordinates: anything that moves the page closes it
    const dismiss = () => close(false)
    document.addEventListener('mousedown', outside)
    window.addEventListener('scroll', dismiss, true)
    window.addEventListener('resize', dismiss)
    return () => {
      document.removeEventListener('mousedown', outside)
      window.removeEventListener('scroll', dismiss, true)
      window.removeEventListener('resize', dismiss)
    }
  }, [open])
  const onMenuKey = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.preventDefault()
      close(true)
    } else if (event.key === 'Tab') close(false)
    else if (moveFocus(menu.current, event.key)) event.preventDefault()
  }
  return (
    <div class="menu-anchor" ref={root}>
      <button
        ref={button}
        type="button"
        class={buttonClass}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        aria-label={label}
        onClick={() => setOpen(!open)}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' && !open) {
            event.preventDefault()
            setOpen(true)
          }
        }}
      >
        {children ?? label}
      </button>
      {open && (
        <div ref={menu} id={id} class="menu menu-floating" role="menu" aria-label={menuLabel} popover="manual" onKeyDown={onMenuKey}>
          {actions.map((action) => (
            <button
              key={action.label}
              type="button"
              role={action.checked === undefined ? 'menuitem' : 'menuitemradio'}
              aria-checked={action.checked}
              lang={action.lang}
              tabIndex={-1}
              class={action.danger ? 'menu-item danger' : 'menu-item'}
              onClick={() => {
                close(true)
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

const menuItems = (menu: HTMLElement) => [...menu.querySelectorAll<HTMLElement>('[role^=menuitem]')]

/** Arrow keys cycle through the items, Home and End jump to the ends; false for any other key. */
function moveFocus(menu: HTMLElement | null, key: string): boolean {
  if (!menu) return false
  const items = menuItems(menu)
  const at = items.indexOf(document.activeElement as HTMLElement)
  const next: Record<string, number> = { ArrowDown: (at + 1) % items.length, ArrowUp: (at - 1 + items.length) % items.length, Home: 0, End: items.length - 1 }
  if (!(key in next)) return false
  items[next[key] as number]?.focus()
  return true
}

/** The top layer where the browser has it (every current one); a plain fixed box elsewhere (test DOMs). */
function showInTopLayer(menu: HTMLElement): void {
  if (typeof menu.showPopover === 'function' && !menu.matches(':popover-open')) menu.showPopover()
}

/** Put the open menu under its button (above it when there is no room below), in viewport coordinates. */
function placeMenu(button: HTMLElement, menu: HTMLElement): void {
  const at = button.getBoundingClientRect()
  const height = menu.offsetHeight
  const below = window.innerHeight - at.bottom
  const top = below < height + 8 && at.top > height + 8 ? at.top - height - 4 : at.bottom + 4
  menu.style.setProperty('top', `${Math.round(top)}px`)
  menu.style.setProperty('left', `${Math.round(Math.max(8, Math.min(at.right - menu.offsetWidth, window.innerWidth - menu.offsetWidth - 8)))}px`)
}
