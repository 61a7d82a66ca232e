import type { SseEvent } from '../../protocols/sse'
import type { UsageTap } from '../../protocols/types'

/**
 * A Responses stream's usage tap that also hands on the response's id, from `response.created` (the first event),
 * once: the gateway remembers where a stored response lives while the client still reads it.
 */
export function responseIdTap(tap: UsageTap, onId: (id: string) => unknown): UsageTap {
  let seen = false
  return {
    push(ev: SseEvent): boolean {
      if (!seen && (ev.event === 'response.created' || (ev.event === undefined && ev.data.includes('"response.created"')))) {
        seen = true
        const id = idOfCreated(ev.data)
        if (id) onId(id)
      }
      return tap.push(ev)
    },
    usage: () => tap.usage(),
  }
}

function idOfCreated(data: string): string | undefined {
  try {
    const id = (JSON.parse(data) as { response?: { id?: unknown } }).response?.id
    return typeof id === 'string' ? id : undefined
  } catch {
    return undefined
  }
}

/** The id of a Responses API answer (a body). */
export function idOfResponse(json: unknown): string | undefined {
  const id = typeof json === 'object' && json !== null ? (json as { id?: unknown }).id : undefined
  return typeof id === 'string' ? id : undefined
}
