import type { FinishReason, StreamEvent, Usage } from '../../ir/index.ts'
import type { SseEvent } from '../sse.ts'
import { arr, num, rec, str, eventJson } from '../shared.ts'
import type { StreamDecoder } from '../types.ts'
import { finishFromChat, usageFromOpenAI } from './maps.ts'

interface ToolState {
  id: string
  started: boolean
  name: string
  pending: string
}

/** Upstream chat.completion.chunk SSE → IR stream events. */
export class ChatStreamDecoder implements StreamDecoder {
  private started = false
  private open: 'text' | 'reasoning' | undefined
  private textN = 0
  private reasoningN = 0
  private tools = new Map<number, ToolState>()
  private toolOrder = 0
  private finish: FinishReason | undefined
  private usage: Usage | undefined
  private done = false

  push(ev: SseEvent): StreamEvent[] {
    if (this.done) return []
    const data = ev.data.trim()
    if (data === '[DONE]') return this.terminate()
    const d = eventJson({ data })
    if (!d) return []
    const out: StreamEvent[] = []
    if (d.error !== undefined) {
      const e = rec(d.error)
      out.push({ type: 'error', error: { message: str(e.message) ?? 'upstream error', code: str(e.code) ?? str(e.type), status: num(e.status) ?? num(e.code) } })
      this.done = true
      return out
    }
    if (!this.started) {
      this.started = true
      out.push({ type: 'start', id: str(d.id) ?? '', model: str(d.model) ?? '', created: num(d.created) })
    }
    const choice = rec(arr(d.choices)[0])
    const delta = rec(choice.delta)
    const reasoning = str(delta.reasoning_content) ?? str(delta.reasoning)
    if (reasoning) {
      if (this.open !== 'reasoning') {
        this.closeText(out)
        this.open = 'reasoning'
        out.push({ type: 'reasoning-start', id: `reasoning-${this.reasoningN}` })
      }
      out.push({ type: 'reasoning-delta', id: `reasoning-${this.reasoningN}`, delta: reasoning })
    }
    const content = str(delta.content)
    if (content) {
      if (this.open !== 'text') {
        this.closeText(out)
        this.open = 'text'
        out.push({ type: 'text-start', id: `text-${this.textN}` })
      }
      out.push({ type: 'text-delta', id: `text-${this.textN}`, delta: content })
    }
    for (const raw of arr(delta.tool_calls)) {
      const c = rec(raw)
      const f = rec(c.function)
      const index = num(c.index) ?? this.tools.size
      let t = this.tools.get(index)
      if (!t) {
        this.closeText(out)
        t = { id: str(c.id) || `call_${index}`, started: false, name: '', pending: '' }
        this.tools.set(index, t)
      }
      if (str(f.name)) t.name += str(f.name)
      const args = str(f.arguments) ?? ''
      if (!t.started && t.name) {
        t.started = true
        out.push({ type: 'tool-input-start', id: t.id, name: t.name, index: this.toolOrder++ })
        if (t.pending) out.push({ type: 'tool-input-delta', id: t.id, delta: t.pending })
        t.pending = ''
      }
      if (args) {
        if (t.started) out.push({ type: 'tool-input-delta', id: t.id, delta: args })
        else t.pending += args
      }
    }
    if (choice.finish_reason != null) {
      this.finish = finishFromChat(str(choice.finish_reason))
      this.closeAll(out)
    }
    if (d.usage && typeof d.usage === 'object') {
      this.usage = usageFromOpenAI(d.usage)
      out.push({ type: 'usage', usage: this.usage })
    }
    return out
  }

  end(): StreamEvent[] {
    if (this.done) return []
    if (this.finish) return this.terminate()
    this.done = true
    const out: StreamEvent[] = []
    this.closeAll(out)
    out.push({ type: 'error', error: { status: 502, code: 'upstream_incomplete', message: 'upstream stream ended without a finish_reason' } })
    return out
  }

  private terminate(): StreamEvent[] {
    this.done = true
    const out: StreamEvent[] = []
    this.closeAll(out)
    const ev: StreamEvent = { type: 'finish', reason: this.finish ?? { unified: 'stop' } }
    if (this.usage) ev.usage = this.usage
    out.push(ev)
    return out
  }

  private closeText(out: StreamEvent[]): void {
    if (this.open === 'text') out.push({ type: 'text-end', id: `text-${this.textN++}` })
    else if (this.open === 'reasoning') out.push({ type: 'reasoning-end', id: `reasoning-${this.reasoningN++}`, origin: 'openai-chat' })
    this.open = undefined
  }

  private closeAll(out: StreamEvent[]): void {
    this.closeText(out)
    for (const t of this.tools.values()) {
      if (!t.started) {
        out.push({ type: 'tool-input-start', id: t.id, name: t.name, index: this.toolOrder++ })
        if (t.pending) out.push({ type: 'tool-input-delta', id: t.id, delta: t.pending })
      }
      out.push({ type: 'tool-input-end', id: t.id })
    }
    this.tools.clear()
  }
}
