import type { Usage } from '../../ir/index.ts'
import type { SseEvent } from '../sse.ts'
import { rec } from '../shared.ts'
import type { UsageTap } from '../types.ts'
import { usageFromResponses } from './maps.ts'

const TERMINAL = new Set(['response.completed', 'response.incomplete', 'response.failed'])

/** Passthrough usage: the `response` object of the terminal event. Other events are not parsed. */
export class ResponsesUsageTap implements UsageTap {
  private u: Usage | undefined

  push(ev: SseEvent): boolean {
    if (ev.event !== undefined ? !TERMINAL.has(ev.event) : !ev.data.includes('"usage"')) return true
    try {
      const d = rec(JSON.parse(ev.data))
      const u = rec(d.response).usage
      if (u && typeof u === 'object') this.u = usageFromResponses(u)
      return true
    } catch {
      return false
    }
  }

  usage(): Usage | undefined {
    return this.u
  }
}

export function usageFromBody(body: unknown): Usage | undefined {
  const u = rec(body).usage
  return u && typeof u === 'object' ? usageFromResponses(u) : undefined
}
