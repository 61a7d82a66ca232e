import { createContext, type ComponentChildren } from 'preact'
import { useCallback, useContext, useEffect, useRef, useState } from 'preact/hooks'
import { useI18n } from '../i18n'
import { Button } from './button'

interface Ask {
  message: string
  confirmLabel?: string
  danger?: boolean
}
type Confirm = (ask: Ask) => Promise<boolean>
const ConfirmContext = createContext<Confirm>(async () => false)

/** A modal `<dialog>` that asks before a destructive action and names the thing ("Delete token 'ci'?"). */
export function ConfirmProvider({ children }: { children: ComponentChildren }) {
  const { t } = useI18n()
  const [pending, setPending] = useState<(Ask & { resolve(ok: boolean): void }) | null>(null)
  const ref = useRef<HTMLDialogElement>(null)
  const confirm = useCallback<Confirm>((ask) => new Promise((resolve) => setPending({ ...ask, resolve })), [])
  useEffect(() => {
    if (pending && ref.current && !ref.current.open) ref.current.showModal()
  }, [pending])
  const answer = (ok: boolean) => {
    ref.current?.close()
    pending?.resolve(ok)
    setPending(null)
  }
  return (
    <ConfirmContext.Provider value={confirm}>
      {children}
      {pending && (
        <dialog ref={ref} class="dialog" aria-labelledby="confirm-message" onCancel={() => answer(false)}>
          <p id="confirm-message">{pending.message}</p>
          <div class="dialog-actions">
            <Button onClick={() => answer(false)}>{t('common.cancel')}</Button>
            <Button variant={pending.danger === false ? 'primary' : 'danger'} onClick={() => answer(true)}>
              {pending.confirmLabel ?? t('common.confirm')}
            </Button>
          </div>
        </dialog>
      )}
    </ConfirmContext.Provider>
  )
}

export const useConfirm = () => useContext(ConfirmContext)

/** A modal dialog with a title, for content that must be seen before going on (a new key, codes). */
export function Modal({ title, onClose, children }: { title: string; onClose(): void; children: ComponentChildren }) {
  const ref = useRef<HTMLDialogElement>(null)
  const { t } = useI18n()
  useEffect(() => {
    if (ref.current && !ref.current.open) ref.current.showModal()
  }, [])
  return (
    <dialog ref={ref} class="dialog dialog-wide" aria-labelledby="modal-title" onCancel={onClose}>
      <div class="dialog-head">
        <h2 id="modal-title">{title}</h2>
        <Button variant="ghost" aria-label={t('common.close')} onClick={onClose}>
          ✕
        </Button>
      </div>
      {children}
    </dialog>
  )
}
