import { useId } from 'preact/hooks'

export interface SegmentOption<T> {
  value: T
  label: string
}

/** A labelled row of toggle buttons (one pressed): the group is named by its visible label. */
export function Segmented<T>({ label, value, options, onChange }: { label: string; value: T; options: readonly SegmentOption<T>[]; onChange(value: T): void }) {
  const id = useId()
  return (
    <div class="segmented-field">
      <span class="segmented-label" id={id}>
        {label}
      </span>
      <div class="segmented" role="group" aria-labelledby={id}>
        {options.map((option) => (
          <button key={option.label} type="button" class="segment" aria-pressed={option.value === value} onClick={() => onChange(option.value)}>
            {option.label}
          </button>
        ))}
      </div>
    </div>
  )
}
