import type { ComponentChildren, JSX } from 'preact'
import { useId } from 'preact/hooks'

interface FieldFrame {
  label: string
  hint?: string
  /** a message shown under the field and announced; the input is marked invalid */
  error?: string
}

/** Label, control, hint and error, tied together by ids so screen readers (and tests) find the control by its label. */
function Frame({ id, label, hint, error, children }: FieldFrame & { id: string; children: ComponentChildren }) {
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {children}
      {hint && !error && <p class="field-hint" id={`${id}-hint`}>{hint}</p>}
      {error && <p class="field-error" id={`${id}-error`} role="alert">{error}</p>}
    </div>
  )
}

const described = (id: string, hint?: string, error?: string) => (error ? `${id}-error` : hint ? `${id}-hint` : undefined)

type InputProps = Omit<JSX.InputHTMLAttributes<HTMLInputElement>, 'onInput' | 'value' | 'label'> & FieldFrame & {
  value: string
  onValue(value: string): void
}

export function TextField({ label, hint, error, value, onValue, ...input }: InputProps) {
  const id = useId()
  return (
    <Frame id={id} label={label} hint={hint} error={error}>
      <input
        id={id}
        {...input}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={described(id, hint, error)}
        onInput={(event) => onValue(event.currentTarget.value)}
      />
    </Frame>
  )
}

type TextAreaProps = Omit<JSX.TextareaHTMLAttributes<HTMLTextAreaElement>, 'onInput' | 'value' | 'label'> & FieldFrame & {
  value: string
  onValue(value: string): void
}

export function TextAreaField({ label, hint, error, value, onValue, ...area }: TextAreaProps) {
  const id = useId()
  return (
    <Frame id={id} label={label} hint={hint} error={error}>
      <textarea
        id={id}
        {...area}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={described(id, hint, error)}
        onInput={(event) => onValue(event.currentTarget.value)}
      />
    </Frame>
  )
}

export interface Choice {
  value: string
  label: string
}

type SelectProps = Omit<JSX.SelectHTMLAttributes<HTMLSelectElement>, 'onChange' | 'value' | 'label'> & FieldFrame & {
  value: string
  options: readonly Choice[]
  onValue(value: string): void
}

export function SelectField({ label, hint, error, value, options, onValue, ...select }: SelectProps) {
  const id = useId()
  return (
    <Frame id={id} label={label} hint={hint} error={error}>
      <select id={id} {...select} value={value} aria-describedby={described(id, hint, error)} onChange={(event) => onValue(event.currentTarget.value)}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </Frame>
  )
}

export function CheckboxField({ label, hint, checked, onChecked, disabled }: { label: string; hint?: string; checked: boolean; onChecked(checked: boolean): void; disabled?: boolean }) {
  const id = useId()
  return (
    <div class="field field-check">
      <input id={id} type="checkbox" checked={checked} disabled={disabled} aria-describedby={hint ? `${id}-hint` : undefined} onChange={(event) => onChecked(event.currentTarget.checked)} />
      <label for={id}>{label}</label>
      {hint && <p class="field-hint" id={`${id}-hint`}>{hint}</p>}
    </div>
  )
}
