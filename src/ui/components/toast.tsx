import { createContext, type ComponentChildren } from 'preact'
import { useCallback, useContext, useState } from 'preact/hooks'

type Show = (message: string) => void
const ToastContext = createContext<Show>(() => {})

/** Short confirmations ("Channel saved") in a polite live region, gone after a few seconds. */
export function ToastProvider({ children }: { children: ComponentChildren }) {
  const [toasts, setToasts] = useState<{ id: number; message: string }[]>([])
  const show = useCallback<Show>((message) => {
    const id = Date.now() + Math.random()
    setToasts((list) => [...list, { id, message }])
    setTimeout(() => setToasts((list) => list.filter((toast) => toast.id !== id)), 3500)
  }, [])
  return (
    <ToastContext.Provider value={show}>
      {children}
      <div class="toasts" role="status" aria-live="polite">
        {toasts.map((toast) => (
          <div key={toast.id} class="toast">
            {toast.message}
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  )
}

export const useToast = () => useContext(ToastContext)
