import { newId, type FinishReason, type StreamEvent, type Usage } from '../../ir/index.ts'
import type { EventStreamEvent } from '../framing/aws-event-stream.ts'
import type { SseEvent } from '../sse.ts'
import { eventJson, num, rec, str } from '../shared.ts'
import type { StreamDecoder } from '../types.ts'
import { finishFromConverse, P, statusOfBedrockError, usageFromConverse } from './maps.ts'

interface Block {
  kind: 'text' | 'reasoning' | 'tool'
  id: string
  signature?: string
  redacted?: string
}

/** An exception message of the event stream (marked by the framing, or named `…Exception`). */
function isException(ev: SseEvent): boolean {
  return (ev as EventStreamEvent).exception === true || /Exception$/.test(ev.event ?? '')
}

/**
 * ConverseStream events (from the AWS event-stream framing: `event` = `:event-type`, `data` = payload JSON) → IR.
 * Text and reasoning blocks have no start event, their first delta opens them; tool blocks start with
 * `contentBlockStart`. `messageStop` carries the stop reason, the `metadata` event after it the usage.
 */
export class ConverseStreamDecoder implements StreamDecoder {
  private blocks = new Map<number, Block>()
  private started = false
  private toolIndex = 0
  private finish: FinishReason | undefined
  private usage: Usage | undefined
  private done = false

  push(ev: SseEvent): StreamEvent[] {
    if (this.done) return []
    if (isException(ev)) return this.exception(ev)
    const d = eventJson(ev)
    if (!d) return []
    const out: StreamEvent[] = []
    if (!this.started) {
      this.started = true
      out.push({ type: 'start', id: newId('msg_bdrk_'), model: '' })
    }
    const index = num(d.contentBlockIndex) ?? 0
    switch (ev.event) {
      case 'contentBlockStart': {
        const tool = rec(rec(d.start).toolUse)
        if (!rec(d.start).toolUse) break
        this.close(index, out)
        const b: Block = { kind: 'tool', id: str(tool.toolUseId) || `tooluse_${index}` }
        this.blocks.set(index, b)
        out.push({ type: 'tool-input-start', id: b.id, name: str(tool.name) ?? '', index: this.toolIndex++ })
        break
      }
      case 'contentBlockDelta':
        this.delta(index, rec(d.delta), out)
        break
      case 'contentBlockStop':
        this.close(index, out)
        break
      case 'messageStop':
        this.closeAll(out)
        this.finish = finishFromConverse(str(d.stopReason), str(rec(d.additionalModelResponseFields).stop_sequence))
        if (this.usage) this.finished(out)
        break
      case 'metadata':
        if (d.usage === undefined) break
        this.usage = usageFromConverse(d.usage)
        out.push({ type: 'usage', usage: this.usage })
        if (this.finish) this.finished(out)
        break
    }
    return out
  }

  end(): StreamEvent[] {
    if (this.done) return []
    const out: StreamEvent[] = []
    this.closeAll(out)
    if (this.finish) this.finished(out)
    else {
      this.done = true
      out.push({ type: 'error', error: { status: 502, code: 'upstream_incomplete', message: 'upstream stream ended before messageStop' } })
    }
    return out
  }

  private delta(index: number, delta: Record<string, unknown>, out: StreamEvent[]): void {
    if (typeof delta.text === 'string') {
      const b = this.open(index, 'text', out)
      if (delta.text) out.push({ type: 'text-delta', id: b.id, delta: delta.text })
    } else if (delta.toolUse) {
      const b = this.open(index, 'tool', out)
      const input = str(rec(delta.toolUse).input)
      if (input) out.push({ type: 'tool-input-delta', id: b.id, delta: input })
    } else if (delta.reasoningContent) {
      const r = rec(delta.reasoningContent)
      const b = this.open(index, 'reasoning', out)
      if (typeof r.text === 'string' && r.text) out.push({ type: 'reasoning-delta', id: b.id, delta: r.text })
      if (typeof r.signature === 'string') b.signature = (b.signature ?? '') + r.signature
      if (typeof r.redactedContent === 'string') b.redacted = (b.redacted ?? '') + r.redactedContent
    }
  }

  /** The block at `index`, opened (and announced) on its first delta. */
  private open(index: number, kind: Block['kind'], out: StreamEvent[]): Block {
    const existing = this.blocks.get(index)
    if (existing?.kind === kind) return existing
    if (existing) this.close(index, out)
    const b: Block = { kind, id: kind === 'tool' ? `tooluse_${index}` : `${kind}-${index}` }
    this.blocks.set(index, b)
    if (kind === 'text') out.push({ type: 'text-start', id: b.id })
    else if (kind === 'reasoning') out.push({ type: 'reasoning-start', id: b.id })
    else out.push({ type: 'tool-input-start', id: b.id, name: '', index: this.toolIndex++ })
    return b
  }

  private close(index: number, out: StreamEvent[]): void {
    const b = this.blocks.get(index)
    if (!b) return
    this.blocks.delete(index)
    if (b.kind === 'text') out.push({ type: 'text-end', id: b.id })
    else if (b.kind === 'tool') out.push({ type: 'tool-input-end', id: b.id })
    else {
      const end: StreamEvent = { type: 'reasoning-end', id: b.id, origin: P }
      if (b.redacted !== undefined) {
        end.redacted = true
        end.encrypted = b.redacted
      } else if (b.signature) end.signature = b.signature
      out.push(end)
    }
  }

  private closeAll(out: StreamEvent[]): void {
    for (const index of [...this.blocks.keys()]) this.close(index, out)
  }

  private finished(out: StreamEvent[]): void {
    this.done = true
    const ev: StreamEvent = { type: 'finish', reason: this.finish ?? { unified: 'other' } }
    if (this.usage) ev.usage = this.usage
    out.push(ev)
  }

  private exception(ev: SseEvent): StreamEvent[] {
    this.done = true
    const d = eventJson(ev) ?? {}
    const type = ev.event ?? 'exception'
    return [{ type: 'error', error: { status: statusOfBedrockError(type), code: type, message: str(d.message) ?? str(d.Message) ?? `Bedrock ${type}` } }]
  }
}
