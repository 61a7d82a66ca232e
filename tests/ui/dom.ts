import { afterAll, beforeAll } from 'bun:test'
import { Window } from 'happy-dom'

/**
 * A DOM for component tests, registered for one test file only: happy-dom replaces fetch, Request and
 * Response, which the rest of the suite needs real. Only the DOM globals are installed, and restored after.
 */
export function useDom(url = 'http://127.0.0.1:3000/'): { window: Window } {
  const holder = { window: undefined as unknown as Window }
  const names = ['window', 'document', 'navigator', 'localStorage', 'location', 'HTMLElement', 'HTMLInputElement', 'HTMLDialogElement', 'Node', 'Event', 'KeyboardEvent', 'MouseEvent', 'InputEvent', 'SVGElement', 'Element', 'getComputedStyle', 'requestAnimationFrame', 'cancelAnimationFrame', 'history', 'customElements']
  const saved = new Map<string, PropertyDescriptor | undefined>()
  beforeAll(() => {
    const window = new Window({ url, width: 1280, height: 800 })
    holder.window = window
    for (const name of names) {
      saved.set(name, Object.getOwnPropertyDescriptor(globalThis, name))
      Object.defineProperty(globalThis, name, { value: (window as unknown as Record<string, unknown>)[name], configurable: true, writable: true })
    }
  })
  afterAll(async () => {
    await holder.window.happyDOM.close()
    for (const [name, descriptor] of saved) {
      if (descriptor) Object.defineProperty(globalThis, name, descriptor)
      else if (name in FRAME_FALLBACKS) Object.defineProperty(globalThis, name, { value: FRAME_FALLBACKS[name], configurable: true, writable: true })
      else delete (globalThis as Record<string, unknown>)[name]
    }
  })
  return holder
}

/**
 * Left in place of the window's frame functions: Preact's effects wait for a frame with a 100 ms timer that cancels
 * it, and a timer still pending when a file's window is gone called `cancelAnimationFrame` that no longer existed.
 */
const FRAME_FALLBACKS: Record<string, unknown> = {
  requestAnimationFrame: (callback: (time: number) => void) => setTimeout(() => callback(performance.now()), 0),
  cancelAnimationFrame: (handle: ReturnType<typeof setTimeout>) => clearTimeout(handle),
}

/** Let Preact flush renders and effects (and resolved promises) before asserting. */
export const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

/** Type into an input as a person would: set the value, fire `input`. */
export function typeInto(input: Element, value: string): void {
  ;(input as HTMLInputElement).value = value
  input.dispatchEvent(new (globalThis as any).window.Event('input', { bubbles: true }))
}

/** The control whose `<label>` text is `text` (as a screen reader would find it). */
export function byLabel(root: ParentNode, text: string): HTMLElement {
  const label = [...root.querySelectorAll('label')].find((l) => l.textContent?.trim() === text)
  if (!label) throw new Error(`no label "${text}"`)
  const id = label.getAttribute('for')
  const control = id ? (root as Document).querySelector?.(`[id="${id}"]`) ?? label.querySelector('input,select,textarea') : label.querySelector('input,select,textarea')
  if (!control) throw new Error(`label "${text}" names no control`)
  return control as HTMLElement
}

export function byRole(root: ParentNode, role: 'button' | 'alert', name?: string): HTMLElement {
  const selector = role === 'button' ? 'button' : '[role="alert"]'
  const found = [...root.querySelectorAll(selector)].find((el) => name === undefined || (el.getAttribute('aria-label') ?? el.textContent ?? '').trim() === name)
  if (!found) throw new Error(`no ${role}${name ? ` named "${name}"` : ''}`)
  return found as HTMLElement
}
