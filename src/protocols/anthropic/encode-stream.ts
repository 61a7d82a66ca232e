import { emptyUsage, newId, type StreamEvent, type Usage } from '../../ir/index.ts'
import { BlockSequencer } from '../sequencer.ts'
import { sseEvent } from '../sse.ts'
import type { StreamEncoder, StreamEncoderOptions, WireError } from '../types.ts'
import { renderError } from './errors.ts'
import { clientSignature, anthropicMessageId } from './encode-response.ts'
import { finishToAnthropic, usageToAnthropic } from './maps.ts'

interface Open {
  kind: 'text' | 'reasoning' | 'tool'
  /** Wire index once `content_block_start` was sent. */
  index?: number
}

/**
 * IR stream → Messages SSE for a client: `message_start`, then per block `content_block_start`, deltas,
 * `content_block_stop` (one block open at a time, indexes in order), then `message_delta` with stop_reason
 * and usage, then `message_stop`. Text blocks open on their first non-empty delta (never empty blocks);
 * thinking blocks always end with a `signature_delta`.
 */
export class AnthropicStreamEncoder implements StreamEncoder {
  private seq = new BlockSequencer()
  private started = false
  private finished = false
  private nextIndex = 0
  private blocks = new Map<string, Open>()
  private usage: Usage = emptyUsage()
  private id = ''
  private model: string
  private readonly gen: (prefix: string) => string

  constructor(opts: StreamEncoderOptions = {}) {
    this.model = opts.model ?? opts.request?.model ?? ''
    this.gen = opts.newId ?? newId
  }

  push(ev: StreamEvent): string[] {
    if (this.finished) return []
    const out: string[] = []
    for (const e of this.seq.push(ev)) this.encode(e, out)
    return out
  }

  end(): string[] {
    if (this.finished) return []
    const out: string[] = []
    for (const e of this.seq.flush()) this.encode(e, out)
    if (!this.finished) this.error({ status: 502, message: 'upstream stream ended unexpectedly' }, out)
    return out
  }

  private ensureStarted(out: string[]): void {
    if (this.started) return
    this.started = true
    if (!this.id) this.id = this.gen('msg_')
    out.push(
      sseEvent('message_start', {
        type: 'message_start',
        message: {
          id: this.id,
          type: 'message',
          role: 'assistant',
          model: this.model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { ...usageToAnthropic(this.usage), output_tokens: this.usage.output.text + this.usage.output.reasoning },
        },
      }),
    )
  }

  private open(id: string, block: Record<string, unknown>, out: string[]): number {
    const b = this.blocks.get(id)
    const index = this.nextIndex++
    if (b) b.index = index
    out.push(sseEvent('content_block_start', { type: 'content_block_start', index, content_block: block }))
    return index
  }

  private delta(index: number, delta: Record<string, unknown>, out: string[]): void {
    out.push(sseEvent('content_block_delta', { type: 'content_block_delta', index, delta }))
  }

  private stop(index: number, out: string[]): void {
    out.push(sseEvent('content_block_stop', { type: 'content_block_stop', index }))
  }

  private encode(e: StreamEvent, out: string[]): void {
    switch (e.type) {
      case 'start':
        // message_start waits for the first content (or the end) so it can carry the input usage that
        // upstreams report right after their own start event; content is never delayed by this.
        if (!this.started) {
          this.id = anthropicMessageId(e.id)
          if (!this.model) this.model = e.model
        }
        return
      case 'usage':
        this.usage = e.usage
        return
      case 'error':
        this.error(e.error, out)
        return
      case 'finish':
        this.finishWith(e, out)
        return
    }
    this.ensureStarted(out)
    switch (e.type) {
      case 'text-start':
        this.blocks.set(e.id, { kind: 'text' })
        return
      case 'text-delta': {
        if (e.delta === '') return
        const b = this.blocks.get(e.id) ?? { kind: 'text' as const }
        this.blocks.set(e.id, b)
        const index = b.index ?? this.open(e.id, { type: 'text', text: '' }, out)
        this.delta(index, { type: 'text_delta', text: e.delta }, out)
        return
      }
      case 'text-end': {
        const b = this.blocks.get(e.id)
        this.blocks.delete(e.id)
        if (b?.index !== undefined) this.stop(b.index, out)
        return
      }
      case 'reasoning-start':
        this.blocks.set(e.id, { kind: 'reasoning' })
        return
      case 'reasoning-delta': {
        if (e.delta === '') return
        const b = this.blocks.get(e.id) ?? { kind: 'reasoning' as const }
        this.blocks.set(e.id, b)
        const index = b.index ?? this.open(e.id, { type: 'thinking', thinking: '', signature: '' }, out)
        this.delta(index, { type: 'thinking_delta', thinking: e.delta }, out)
        return
      }
      case 'reasoning-end': {
        const b = this.blocks.get(e.id) ?? { kind: 'reasoning' as const }
        this.blocks.delete(e.id)
        if (b.index === undefined && e.redacted && e.origin === 'anthropic') {
          this.blocks.set(e.id, b)
          const index = this.open(e.id, { type: 'redacted_thinking', data: e.encrypted ?? '' }, out)
          this.blocks.delete(e.id)
          this.stop(index, out)
          return
        }
        if (b.index === undefined && !e.signature && !e.encrypted) return // nothing to show or carry
        if (b.index === undefined) {
          this.blocks.set(e.id, b)
          this.open(e.id, { type: 'thinking', thinking: '', signature: '' }, out)
          this.blocks.delete(e.id)
        }
        const index = b.index!
        this.delta(index, { type: 'signature_delta', signature: clientSignature({ signature: e.signature, encrypted: e.encrypted, origin: e.origin, id: e.itemId }) }, out)
        this.stop(index, out)
        return
      }
      case 'tool-input-start': {
        this.blocks.set(e.id, { kind: 'tool' })
        this.open(e.id, { type: 'tool_use', id: e.id, name: e.name, input: {} }, out)
        return
      }
      case 'tool-input-delta': {
        const b = this.blocks.get(e.id)
        if (b?.index === undefined || e.delta === '') return
        this.delta(b.index, { type: 'input_json_delta', partial_json: e.delta }, out)
        return
      }
      case 'tool-input-end': {
        const b = this.blocks.get(e.id)
        this.blocks.delete(e.id)
        if (b?.index !== undefined) this.stop(b.index, out)
        return
      }
    }
  }

  private closeOpen(out: string[]): void {
    for (const b of this.blocks.values()) if (b.index !== undefined) this.stop(b.index, out)
    this.blocks.clear()
  }

  private finishWith(e: Extract<StreamEvent, { type: 'finish' }>, out: string[]): void {
    this.ensureStarted(out)
    this.closeOpen(out)
    if (e.usage) this.usage = e.usage
    out.push(
      sseEvent('message_delta', {
        type: 'message_delta',
        delta: { stop_reason: finishToAnthropic(e.reason), stop_sequence: e.reason.stopSequence ?? null },
        usage: usageToAnthropic(this.usage),
      }),
    )
    out.push(sseEvent('message_stop', { type: 'message_stop' }))
    this.finished = true
  }

  private error(err: WireError | { status?: number; message: string; code?: string }, out: string[]): void {
    out.push(sseEvent('error', renderError({ status: err.status ?? 500, message: err.message, code: err.code })))
    this.finished = true
  }
}
