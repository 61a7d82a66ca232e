export type Tone = 'success' | 'warning' | 'danger' | 'muted'

/** Status as a small coloured dot plus a word: never colour alone. */
export function StatusDot({ tone, label }: { tone: Tone; label: string }) {
  return (
    <span class={`status status-${tone}`}>
      <span class="dot" aria-hidden="true" />
      {label}
    </span>
  )
}
