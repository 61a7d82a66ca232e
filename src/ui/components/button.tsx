import type { JSX } from 'preact'

type Variant = 'primary' | 'secondary' | 'danger' | 'ghost'

/** A button in one of the few styles; `busy` disables it and says so to assistive technology. */
export function Button({ variant = 'secondary', busy, class: extra, type = 'button', children, ...rest }: JSX.ButtonHTMLAttributes<HTMLButtonElement> & { variant?: Variant; busy?: boolean }) {
  return (
    <button {...rest} type={type} class={`btn btn-${variant}${extra ? ` ${extra}` : ''}`} disabled={rest.disabled || busy} aria-busy={busy ? true : undefined}>
      {children}
    </button>
  )
}
