import type { ComponentChildren } from 'preact'

/** What a list shows when it has nothing: what to do next, with the action as a button. */
export function EmptyState({ message, action }: { message: string; action?: ComponentChildren }) {
  return (
    <div class="empty">
      <p>{message}</p>
      {action}
    </div>
  )
}
