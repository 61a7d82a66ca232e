import type { ComponentChildren } from 'preact'
import { useEffect, useRef } from 'preact/hooks'
import { useI18n } from '../i18n'
import { Button } from './button'

/**
 * Editing happens in a side drawer (a full-screen sheet on phones); the list stays visible behind it.
 * A modal `<dialog>`: focus moves in, Escape closes, focus returns where it was.
 */
export function Drawer({ title, onClose, children, footer }: { title: string; onClose(): void; children: ComponentChildren; footer?: ComponentChildren }) {
  const ref = useRef<HTMLDialogElement>(null)
  const { t } = useI18n()
  useEffect(() => {
    const dialog = ref.current
    if (dialog && !dialog.open) dialog.showModal()
  }, [])
  return (
    <dialog ref={ref} class="drawer" aria-labelledby="drawer-title" onCancel={(event) => (event.preventDefault(), onClose())}>
      <div class="drawer-head">
        <h2 id="drawer-title">{title}</h2>
        <Button variant="ghost" aria-label={t('common.close')} onClick={onClose}>
          ✕
        </Button>
      </div>
      <div class="drawer-body">{children}</div>
      {footer && <div class="drawer-foot">{footer}</div>}
    </dialog>
  )
}
