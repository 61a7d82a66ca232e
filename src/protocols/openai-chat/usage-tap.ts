import type { Usage } from '../../ir/index.ts'
import type { SseEvent } from '../sse.ts'
import { rec } from '../shared.ts'
import type { UsageTap } from '../types.ts'
import { usageFromOpenAI } from './maps.ts'

/** Passthrough usage: the chunk that carries `usage` (the last one with include_usage). */
export class ChatUsageTap implements UsageTap {
  private u: Usage | undefined

  push(ev: SseEvent): boolean {
    if (!ev.data.includes('"usage"')) return true
    try {
      const d = rec(JSON.parse(ev.data))
      if (d.usage && typeof d.usage === 'object') this.u = usageFromOpenAI(d.usage)
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
  return u && typeof u === 'object' ? usageFromOpenAI(u) : undefined
}
