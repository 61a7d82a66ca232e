import { emptyUsage, newId, toolNames, type StreamEvent, type ToolNames, type Usage } from '../../ir/index.ts'
import { BlockSequencer } from '../sequencer.ts'
import { sseEvent } from '../sse.ts'
import type { StreamEncoder, StreamEncoderOptions } from '../types.ts'
import { functionCallItem, messageItem, reasoningItem, responseId, responseShell } from './encode-response.ts'
import { statusForFinish, usageToResponses } from './maps.ts'

interface OpenItem {
  kind: 'message' | 'reasoning' | 'tool'
  itemId: string
  outputIndex: number
  text: string
  /** Tool call id and name. */
  callId?: string
  name?: string
  namespace?: string
}

/**
 * IR stream → Responses SSE: response.created, response.in_progress, then per output item
 * output_item.added → (content_part.added → output_text.delta… → output_text.done → content_part.done |
 * reasoning_summary_part.added → reasoning_summary_text.delta… → …done | function_call_arguments.delta… → .done)
 * → output_item.done, and finally response.completed (or response.incomplete / response.failed) with usage.
 * Every event carries `sequence_number`.
 */
export class ResponsesStreamEncoder implements StreamEncoder {
  private seq = new BlockSequencer()
  private n = 0
  private started = false
  private finished = false
  private id = ''
  private model: string
  private readonly gen: (prefix: string) => string
  private created = Math.floor(Date.now() / 1000)
  private items = new Map<string, OpenItem>()
  private output: Record<string, unknown>[] = []
  private usage: Usage = emptyUsage()
  /** Upstream reasoning item ids (rs_…) to reuse, so a client replaying the item sends the same id. */
  private reasoningIds = new Map<string, string>()
  /** Flat tool names an upstream without namespaces used → the client's namespaced tools. */
  private readonly names: ToolNames

  constructor(private readonly opts: StreamEncoderOptions = {}) {
    this.model = opts.model ?? opts.request?.model ?? ''
    this.gen = opts.newId ?? newId
    this.names = toolNames(opts.request?.tools ?? [])
    if (opts.now) this.created = opts.now()
  }

  private ev(type: string, payload: Record<string, unknown>): string {
    return sseEvent(type, { type, sequence_number: this.n++, ...payload })
  }

  private shell(): Record<string, unknown> {
    return responseShell(this.id, this.model, this.created, this.opts.request)
  }

  push(e: StreamEvent): string[] {
    if (this.finished) return []
    const out: string[] = []
    for (const x of this.seq.push(e)) this.encode(x, out)
    return out
  }

  end(): string[] {
    if (this.finished) return []
    const out: string[] = []
    for (const x of this.seq.flush()) this.encode(x, out)
    if (!this.finished) this.fail('upstream stream ended unexpectedly', 'server_error', out)
    return out
  }

  private ensureStarted(out: string[]): void {
    if (this.started) return
    this.started = true
    if (!this.id) this.id = this.gen('resp_')
    const r = this.shell()
    out.push(this.ev('response.created', { response: r }))
    out.push(this.ev('response.in_progress', { response: r }))
  }

  private addItem(key: string, kind: OpenItem['kind'], item: Record<string, unknown>, out: string[], extra: Partial<OpenItem> = {}): OpenItem {
    const it: OpenItem = { kind, itemId: String(item.id), outputIndex: this.output.length, text: '', ...extra }
    this.output.push(item)
    this.items.set(key, it)
    out.push(this.ev('response.output_item.added', { output_index: it.outputIndex, item }))
    return it
  }

  private openMessage(key: string, out: string[]): OpenItem {
    const id = this.gen('msg_')
    const it = this.addItem(key, 'message', { id, type: 'message', status: 'in_progress', role: 'assistant', content: [] }, out)
    out.push(
      this.ev('response.content_part.added', {
        item_id: id,
        output_index: it.outputIndex,
        content_index: 0,
        part: { type: 'output_text', text: '', annotations: [], logprobs: [] },
      }),
    )
    return it
  }

  private openReasoning(key: string, out: string[]): OpenItem {
    const id = this.reasoningIds.get(key) ?? this.gen('rs_')
    this.reasoningIds.delete(key)
    const it = this.addItem(key, 'reasoning', { id, type: 'reasoning', summary: [] }, out)
    out.push(
      this.ev('response.reasoning_summary_part.added', {
        item_id: id,
        output_index: it.outputIndex,
        summary_index: 0,
        part: { type: 'summary_text', text: '' },
      }),
    )
    return it
  }

  private encode(e: StreamEvent, out: string[]): void {
    switch (e.type) {
      case 'start':
        if (!this.started) {
          this.id = responseId(e.id)
          if (!this.model) this.model = e.model
          if (e.created) this.created = e.created
        }
        this.ensureStarted(out)
        return
      case 'usage':
        this.usage = e.usage
        return
      case 'finish': {
        this.ensureStarted(out)
        if (e.usage) this.usage = e.usage
        const st = statusForFinish(e.reason)
        if (st.status === 'failed') {
          this.fail('upstream finished with an error', 'server_error', out)
          return
        }
        const r = this.shell()
        r.status = st.status
        if (st.incomplete) r.incomplete_details = { reason: st.incomplete }
        r.output = this.output
        r.usage = usageToResponses(this.usage)
        out.push(this.ev(st.status === 'completed' ? 'response.completed' : 'response.incomplete', { response: r }))
        this.finished = true
        return
      }
      case 'error':
        this.fail(e.error.message, e.error.code ?? 'server_error', out)
        return
    }
    this.ensureStarted(out)
    switch (e.type) {
      case 'text-start':
        return // opened on the first non-empty delta
      case 'text-delta': {
        if (!e.delta) return
        const it = this.items.get(e.id) ?? this.openMessage(e.id, out)
        it.text += e.delta
        out.push(this.ev('response.output_text.delta', { item_id: it.itemId, output_index: it.outputIndex, content_index: 0, delta: e.delta, logprobs: [] }))
        return
      }
      case 'text-end': {
        const it = this.items.get(e.id)
        if (!it) return
        this.items.delete(e.id)
        const base = { item_id: it.itemId, output_index: it.outputIndex, content_index: 0 }
        out.push(this.ev('response.output_text.done', { ...base, text: it.text, logprobs: [] }))
        out.push(this.ev('response.content_part.done', { ...base, part: { type: 'output_text', text: it.text, annotations: [], logprobs: [] } }))
        const item = messageItem(it.itemId, it.text)
        this.output[it.outputIndex] = item
        out.push(this.ev('response.output_item.done', { output_index: it.outputIndex, item }))
        return
      }
      case 'reasoning-start':
        if (e.itemId?.startsWith('rs_')) this.reasoningIds.set(e.id, e.itemId)
        return // opened on the first delta or at the end
      case 'reasoning-delta': {
        if (!e.delta) return
        const it = this.items.get(e.id) ?? this.openReasoning(e.id, out)
        it.text += e.delta
        out.push(this.ev('response.reasoning_summary_text.delta', { item_id: it.itemId, output_index: it.outputIndex, summary_index: 0, delta: e.delta }))
        return
      }
      case 'reasoning-end': {
        let it = this.items.get(e.id)
        if (!it) {
          if (!e.signature && !e.encrypted) return
          it = this.openReasoning(e.id, out)
        }
        this.items.delete(e.id)
        const base = { item_id: it.itemId, output_index: it.outputIndex, summary_index: 0 }
        out.push(this.ev('response.reasoning_summary_text.done', { ...base, text: it.text }))
        out.push(this.ev('response.reasoning_summary_part.done', { ...base, part: { type: 'summary_text', text: it.text } }))
        const item = reasoningItem(it.itemId, it.text, { signature: e.signature, encrypted: e.encrypted, origin: e.origin })
        this.output[it.outputIndex] = item
        out.push(this.ev('response.output_item.done', { output_index: it.outputIndex, item }))
        return
      }
      case 'tool-input-start': {
        const id = this.gen('fc_')
        const { name, namespace } = this.names.parse(e.name)
        this.addItem(e.id, 'tool', functionCallItem(id, e.id, name, '', 'in_progress', false, namespace), out, { callId: e.id, name, namespace })
        return
      }
      case 'tool-input-delta': {
        const it = this.items.get(e.id)
        if (!it || !e.delta) return
        it.text += e.delta
        out.push(this.ev('response.function_call_arguments.delta', { item_id: it.itemId, output_index: it.outputIndex, delta: e.delta }))
        return
      }
      case 'tool-input-end': {
        const it = this.items.get(e.id)
        if (!it) return
        this.items.delete(e.id)
        const args = it.text || '{}'
        out.push(this.ev('response.function_call_arguments.done', { item_id: it.itemId, output_index: it.outputIndex, name: it.name, arguments: args }))
        const item = functionCallItem(it.itemId, it.callId ?? e.id, it.name ?? '', args, 'completed', false, it.namespace)
        this.output[it.outputIndex] = item
        out.push(this.ev('response.output_item.done', { output_index: it.outputIndex, item }))
        return
      }
    }
  }

  private fail(message: string, code: string, out: string[]): void {
    this.ensureStarted(out)
    const r = this.shell()
    r.status = 'failed'
    r.error = { code, message }
    r.output = this.output
    r.usage = usageToResponses(this.usage)
    out.push(this.ev('response.failed', { response: r }))
    this.finished = true
  }
}
