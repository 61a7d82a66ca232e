import type { FinishReason, StreamEvent, Usage } from '../../ir/index.ts'
import { unwrapSignature } from '../envelope.ts'
import type { SseEvent } from '../sse.ts'
import { num, rec, str, eventJson } from '../shared.ts'
import type { StreamDecoder } from '../types.ts'
import { finishFromResponses, usageFromResponses } from './maps.ts'

const P = 'openai-responses'

interface Item {
  kind: 'message' | 'reasoning' | 'tool' | 'other'
  /** IR block id. */
  id: string
  opened: boolean
  hadDelta: boolean
  summaryIndex: number
}

/** Upstream Responses SSE → IR stream events. */
export class ResponsesStreamDecoder implements StreamDecoder {
  private items = new Map<string, Item>()
  private started = false
  private toolIndex = 0
  private calledTools = false
  private done = false

  push(ev: SseEvent): StreamEvent[] {
    if (this.done) return []
    const d = eventJson(ev)
    if (!d) return []
    const type = str(d.type) ?? ev.event ?? ''
    const out: StreamEvent[] = []
    const itemId = str(d.item_id) ?? ''
    switch (type) {
      case 'response.created':
      case 'response.in_progress': {
        if (this.started) break
        this.started = true
        const r = rec(d.response)
        out.push({ type: 'start', id: str(r.id) ?? '', model: str(r.model) ?? '', created: num(r.created_at) })
        break
      }
      case 'response.output_item.added': {
        const item = rec(d.item)
        const id = str(item.id) ?? `item-${this.items.size}`
        if (item.type === 'message') this.items.set(id, { kind: 'message', id: `text-${id}`, opened: false, hadDelta: false, summaryIndex: 0 })
        else if (item.type === 'reasoning') {
          this.items.set(id, { kind: 'reasoning', id: `reasoning-${id}`, opened: true, hadDelta: false, summaryIndex: 0 })
          out.push({ type: 'reasoning-start', id: `reasoning-${id}`, itemId: id })
        } else if (item.type === 'function_call' || item.type === 'custom_tool_call') {
          const callId = str(item.call_id) ?? id
          this.items.set(id, { kind: 'tool', id: callId, opened: true, hadDelta: false, summaryIndex: 0 })
          this.calledTools = true
          out.push({ type: 'tool-input-start', id: callId, name: str(item.name) ?? '', index: this.toolIndex++ })
          const args = str(item.arguments) ?? str(item.input)
          if (args) {
            out.push({ type: 'tool-input-delta', id: callId, delta: args })
            this.items.get(id)!.hadDelta = true
          }
        } else this.items.set(id, { kind: 'other', id, opened: false, hadDelta: false, summaryIndex: 0 })
        break
      }
      case 'response.output_text.delta':
      case 'response.refusal.delta': {
        const it = this.items.get(itemId)
        const delta = str(d.delta)
        if (!it || it.kind !== 'message' || !delta) break
        if (!it.opened) {
          it.opened = true
          out.push({ type: 'text-start', id: it.id })
        }
        it.hadDelta = true
        out.push({ type: 'text-delta', id: it.id, delta })
        break
      }
      case 'response.reasoning_summary_text.delta':
      case 'response.reasoning_text.delta': {
        const it = this.items.get(itemId)
        const delta = str(d.delta)
        if (!it || it.kind !== 'reasoning' || !delta) break
        const si = num(d.summary_index) ?? num(d.content_index) ?? 0
        if (it.hadDelta && si !== it.summaryIndex) out.push({ type: 'reasoning-delta', id: it.id, delta: '\n\n' })
        it.summaryIndex = si
        it.hadDelta = true
        out.push({ type: 'reasoning-delta', id: it.id, delta })
        break
      }
      case 'response.function_call_arguments.delta':
      case 'response.custom_tool_call_input.delta': {
        const it = this.items.get(itemId)
        const delta = str(d.delta)
        if (!it || it.kind !== 'tool' || !delta) break
        it.hadDelta = true
        out.push({ type: 'tool-input-delta', id: it.id, delta })
        break
      }
      case 'response.output_item.done': {
        const item = rec(d.item)
        const id = str(item.id) ?? ''
        const it = this.items.get(id)
        if (!it) break
        this.items.delete(id)
        out.push(...this.closeItem(it, item))
        break
      }
      case 'response.completed':
      case 'response.incomplete': {
        const r = rec(d.response)
        for (const it of this.items.values()) out.push(...this.closeItem(it, {}))
        this.items.clear()
        const usage: Usage = usageFromResponses(r.usage)
        const reason: FinishReason = finishFromResponses(r, this.calledTools)
        out.push({ type: 'usage', usage })
        out.push({ type: 'finish', reason, usage })
        this.done = true
        break
      }
      case 'response.failed': {
        const r = rec(d.response)
        const e = rec(r.error)
        out.push({ type: 'error', error: { message: str(e.message) ?? 'upstream response failed', code: str(e.code) ?? 'response_failed', status: 502 } })
        this.done = true
        break
      }
      case 'error': {
        const e = d.error !== undefined ? rec(d.error) : d
        out.push({ type: 'error', error: { message: str(e.message) ?? 'upstream error', code: str(e.code) ?? str(e.type), status: 502 } })
        this.done = true
        break
      }
    }
    return out
  }

  end(): StreamEvent[] {
    if (this.done) return []
    this.done = true
    const out: StreamEvent[] = []
    for (const it of this.items.values()) out.push(...this.closeItem(it, {}))
    this.items.clear()
    out.push({ type: 'error', error: { status: 502, code: 'upstream_incomplete', message: 'upstream stream ended before response.completed' } })
    return out
  }

  private closeItem(it: Item, item: Record<string, unknown>): StreamEvent[] {
    const out: StreamEvent[] = []
    switch (it.kind) {
      case 'message': {
        if (!it.hadDelta) {
          // No deltas were streamed: take the text from the finished item.
          const text = ((item.content as unknown[]) ?? []).map((c) => str(rec(c).text) ?? str(rec(c).refusal) ?? '').join('')
          if (!text) return out
          out.push({ type: 'text-start', id: it.id }, { type: 'text-delta', id: it.id, delta: text })
        } else if (!it.opened) return out
        out.push({ type: 'text-end', id: it.id })
        return out
      }
      case 'reasoning': {
        if (!it.hadDelta) {
          const summary = ((item.summary as unknown[]) ?? []).map((s) => str(rec(s).text) ?? '').filter(Boolean).join('\n\n')
          if (summary) out.push({ type: 'reasoning-delta', id: it.id, delta: summary })
        }
        const end: StreamEvent = { type: 'reasoning-end', id: it.id, origin: P }
        const itemId = str(item.id)
        if (itemId) end.itemId = itemId
        const enc = str(item.encrypted_content)
        const env = enc ? unwrapSignature(enc) : undefined
        if (env) {
          end.origin = env.origin
          if (env.signature) end.signature = env.signature
          if (env.encrypted) end.encrypted = env.encrypted
        } else if (enc) end.encrypted = enc
        out.push(end)
        return out
      }
      case 'tool': {
        if (!it.hadDelta) {
          const args = str(item.arguments) ?? str(item.input)
          if (args) out.push({ type: 'tool-input-delta', id: it.id, delta: args })
        }
        out.push({ type: 'tool-input-end', id: it.id })
        return out
      }
      default:
        return out
    }
  }
}
