import type { Usage } from '../../ir/index.ts'
import type { SseEvent } from '../sse.ts'
import { rec } from '../shared.ts'
import type { UsageTap } from '../types.ts'
import { usageFromConverse } from './maps.ts'

/** Usage of a ConverseStream: the `metadata` event after `messageStop`. Other events are not parsed. */
export class ConverseUsageTap implements UsageTap {
  private u: Usage | undefined

  push(ev: SseEvent): boolean {
    if (ev.event !== 'metadata') return true
    try {
      const d = rec(JSON.parse(ev.data))
      if (d.usage && typeof d.usage === 'object') this.u = usageFromConverse(d.usage)
      return true
    } catch {
      return false
    }
  }

  usage(): Usage | undefined {
    return this.u
  }
}

/** Usage of a Converse response body. */
export function usageFromBody(body: unknown): Usage | undefined {
  const u = rec(body).usage
  return u && typeof u === 'object' ? usageFromConverse(u) : undefined
}
