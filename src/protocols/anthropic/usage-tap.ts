import type { Usage } from '../../ir/index.ts'
import type { SseEvent } from '../sse.ts'
import { rec } from '../shared.ts'
import type { UsageTap } from '../types.ts'
import { usageFromAnthropic } from './maps.ts'

/**
 * Passthrough usage: input counts from `message_start`, cumulative output (and sometimes input) from
 * `message_delta`. Only events that can carry usage are parsed.
 */
export class AnthropicUsageTap implements UsageTap {
  private raw: Record<string, unknown> | undefined

  push(ev: SseEvent): boolean {
    const name = ev.event
    if (name !== undefined && name !== 'message_start' && name !== 'message_delta') return true
    if (name === undefined && !ev.data.includes('"usage"')) return true
    let d: Record<string, unknown>
    try {
      d = rec(JSON.parse(ev.data))
    } catch {
      return false
    }
    const u = d.type === 'message_start' ? rec(d.message).usage : d.type === 'message_delta' ? d.usage : undefined
    if (u === undefined || u === null) return true
    this.raw = { ...this.raw }
    for (const [k, v] of Object.entries(rec(u))) if (v !== null && v !== undefined) this.raw[k] = v
    return true
  }

  usage(): Usage | undefined {
    return this.raw ? usageFromAnthropic(this.raw) : undefined
  }
}

export function usageFromBody(body: unknown): Usage | undefined {
  const u = rec(body).usage
  return u && typeof u === 'object' ? usageFromAnthropic(u) : undefined
}
