import { emptyUsage, type FinishReason, type StreamEvent, type Usage } from '../../ir/index.ts'
import type { SseEvent } from '../sse.ts'
import type { StreamDecoder } from '../types.ts'
import { rec, str, eventJson } from '../shared.ts'
import { finishFromAnthropic, usageFromAnthropic } from './maps.ts'
import { unwrapSignature } from '../envelope.ts'

interface Block {
  kind: 'text' | 'reasoning' | 'tool' | 'ignored'
  id: string
  signature?: string
  redacted?: string
}

/** Merges a cumulative Anthropic usage object into the running IR usage (fields absent stay as they were). */
function mergeUsage(cur: Usage, raw: unknown): Usage {
  const o = rec(raw)
  const next = usageFromAnthropic(raw)
  return {
    input: {
      noCache: o.input_tokens != null ? next.input.noCache : cur.input.noCache,
      cacheRead: o.cache_read_input_tokens != null ? next.input.cacheRead : cur.input.cacheRead,
      cacheWrite: o.cache_creation_input_tokens != null ? next.input.cacheWrite : cur.input.cacheWrite,
      ...(o.cache_creation != null ? oneHour(next) : oneHour(cur)),
    },
    output: o.output_tokens != null ? next.output : cur.output,
  }
}

const oneHour = (u: Usage) => (u.input.cacheWrite1h ? { cacheWrite1h: u.input.cacheWrite1h } : {})

/** Upstream Messages SSE → IR stream events. */
export class AnthropicStreamDecoder implements StreamDecoder {
  private blocks = new Map<number, Block>()
  private usage: Usage = emptyUsage()
  private finish: FinishReason | undefined
  private toolIndex = 0
  private done = false

  push(ev: SseEvent): StreamEvent[] {
    if (this.done) return []
    const d = eventJson(ev)
    if (!d) return []
    const type = str(d.type) ?? ev.event
    const out: StreamEvent[] = []
    switch (type) {
      case 'message_start': {
        const m = rec(d.message)
        out.push({ type: 'start', id: str(m.id) ?? '', model: str(m.model) ?? '' })
        this.usage = mergeUsage(this.usage, m.usage)
        out.push({ type: 'usage', usage: this.usage })
        break
      }
      case 'content_block_start': {
        const index = Number(d.index)
        const cb = rec(d.content_block)
        if (cb.type === 'text') {
          const b: Block = { kind: 'text', id: `text-${index}` }
          this.blocks.set(index, b)
          out.push({ type: 'text-start', id: b.id })
          if (typeof cb.text === 'string' && cb.text) out.push({ type: 'text-delta', id: b.id, delta: cb.text })
        } else if (cb.type === 'thinking') {
          const b: Block = { kind: 'reasoning', id: `reasoning-${index}` }
          if (typeof cb.signature === 'string' && cb.signature) b.signature = cb.signature
          this.blocks.set(index, b)
          out.push({ type: 'reasoning-start', id: b.id })
          if (typeof cb.thinking === 'string' && cb.thinking) out.push({ type: 'reasoning-delta', id: b.id, delta: cb.thinking })
        } else if (cb.type === 'redacted_thinking') {
          const b: Block = { kind: 'reasoning', id: `reasoning-${index}`, redacted: str(cb.data) ?? '' }
          this.blocks.set(index, b)
          out.push({ type: 'reasoning-start', id: b.id })
        } else if (cb.type === 'tool_use') {
          const b: Block = { kind: 'tool', id: str(cb.id) ?? `toolu_${index}` }
          this.blocks.set(index, b)
          out.push({ type: 'tool-input-start', id: b.id, name: str(cb.name) ?? '', index: this.toolIndex++ })
          const input = rec(cb.input)
          if (Object.keys(input).length) out.push({ type: 'tool-input-delta', id: b.id, delta: JSON.stringify(input) })
        } else this.blocks.set(index, { kind: 'ignored', id: '' })
        break
      }
      case 'content_block_delta': {
        const b = this.blocks.get(Number(d.index))
        const delta = rec(d.delta)
        if (!b) break
        if (delta.type === 'text_delta' && b.kind === 'text') {
          const t = str(delta.text)
          if (t) out.push({ type: 'text-delta', id: b.id, delta: t })
        } else if (delta.type === 'thinking_delta' && b.kind === 'reasoning') {
          const t = str(delta.thinking)
          if (t) out.push({ type: 'reasoning-delta', id: b.id, delta: t })
        } else if (delta.type === 'signature_delta' && b.kind === 'reasoning') {
          b.signature = (b.signature ?? '') + (str(delta.signature) ?? '')
        } else if (delta.type === 'input_json_delta' && b.kind === 'tool') {
          const t = str(delta.partial_json)
          if (t) out.push({ type: 'tool-input-delta', id: b.id, delta: t })
        }
        break
      }
      case 'content_block_stop': {
        const index = Number(d.index)
        const b = this.blocks.get(index)
        if (!b) break
        this.blocks.delete(index)
        out.push(...this.close(b))
        break
      }
      case 'message_delta': {
        const delta = rec(d.delta)
        if (delta.stop_reason !== undefined) this.finish = finishFromAnthropic(str(delta.stop_reason), str(delta.stop_sequence))
        if (d.usage !== undefined) {
          this.usage = mergeUsage(this.usage, d.usage)
          out.push({ type: 'usage', usage: this.usage })
        }
        break
      }
      case 'message_stop':
        out.push(...this.closeAll())
        out.push({ type: 'finish', reason: this.finish ?? { unified: 'stop' }, usage: this.usage })
        this.done = true
        break
      case 'error': {
        const e = rec(d.error)
        const etype = str(e.type) ?? 'api_error'
        out.push({ type: 'error', error: { message: str(e.message) ?? 'upstream error', code: etype, status: statusFor(etype) } })
        this.done = true
        break
      }
    }
    return out
  }

  end(): StreamEvent[] {
    if (this.done) return []
    this.done = true
    const out = this.closeAll()
    if (this.finish) out.push({ type: 'finish', reason: this.finish, usage: this.usage })
    else out.push({ type: 'error', error: { status: 502, code: 'upstream_incomplete', message: 'upstream stream ended before message_stop' } })
    return out
  }

  private close(b: Block): StreamEvent[] {
    switch (b.kind) {
      case 'text':
        return [{ type: 'text-end', id: b.id }]
      case 'tool':
        return [{ type: 'tool-input-end', id: b.id }]
      case 'reasoning': {
        const end: StreamEvent = { type: 'reasoning-end', id: b.id, origin: 'anthropic' }
        if (b.redacted !== undefined) {
          end.redacted = true
          end.encrypted = b.redacted
        } else if (b.signature) {
          const env = unwrapSignature(b.signature)
          if (env) {
            end.origin = env.origin
            if (env.signature) end.signature = env.signature
            if (env.encrypted) end.encrypted = env.encrypted
          } else end.signature = b.signature
        }
        return [end]
      }
      default:
        return []
    }
  }

  private closeAll(): StreamEvent[] {
    const out: StreamEvent[] = []
    for (const b of this.blocks.values()) out.push(...this.close(b))
    this.blocks.clear()
    return out
  }
}

function statusFor(type: string): number {
  switch (type) {
    case 'overloaded_error':
      return 529
    case 'rate_limit_error':
      return 429
    case 'invalid_request_error':
      return 400
    case 'authentication_error':
      return 401
    case 'permission_error':
      return 403
    case 'not_found_error':
      return 404
    default:
      return 500
  }
}
