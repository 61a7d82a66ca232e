import type { Usage } from '../../ir/index.ts'
import type { SseEvent } from '../sse.ts'
import { rec } from '../shared.ts'
import type { UsageTap } from '../types.ts'
import { usageFromGemini } from './maps.ts'

/** Passthrough usage: the latest `usageMetadata` (cumulative, usually complete on the last chunk). */
export class GeminiUsageTap implements UsageTap {
  private u: Usage | undefined

  push(ev: SseEvent): boolean {
    if (!ev.data.includes('usageMetadata')) return true
    try {
      const m = rec(JSON.parse(ev.data)).usageMetadata
      if (m && typeof m === 'object') this.u = usageFromGemini(m)
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
  const b = Array.isArray(body) ? rec(body[body.length - 1]) : rec(body)
  const m = b.usageMetadata
  return m && typeof m === 'object' ? usageFromGemini(m) : undefined
}
