import { converted, newId, tokenCount, type Converted, type FinishReason, type IrResponse, type StreamEvent, type Usage } from '../../ir/index.ts'
import type { SseEvent } from '../sse.ts'
import { eventJson, jsonBody, rec, str } from '../shared.ts'
import type { StreamDecoder, UsageTap, WireError } from '../types.ts'
import { TextBlocks } from '../text-blocks.ts'

const STOP: FinishReason = { unified: 'stop' }

/** Coze's chat usage (`input_count`, `output_count`, `token_count`) as IR usage. */
function usageFromCoze(usage: unknown): Usage {
  const u = rec(usage)
  return { input: { noCache: tokenCount(u.input_count), cacheRead: 0, cacheWrite: 0 }, output: { text: tokenCount(u.output_count), reasoning: 0 } }
}

/** Coze answers a chat as a stream only (see `streamsOnly`); a JSON body is a chat object without the answer. */
export function decodeResponse(body: unknown): Converted<IrResponse> {
  const b = rec(rec(body).data)
  return converted({ id: str(b.id) ?? newId('chat_coze_'), model: '', parts: [], finish: STOP, usage: usageFromCoze(b.usage) })
}

export function usageFromBody(body: unknown): Usage | undefined {
  const usage = rec(rec(body).data).usage
  return usage && typeof usage === 'object' ? usageFromCoze(usage) : undefined
}

/** Coze's errors: `{code, msg}` (HTTP 4xx, or a 200 whose `code` is not 0). */
export function parseError(status: number, body: unknown): WireError {
  const b = rec(jsonBody(body))
  const message = str(b.msg) ?? str(b.message) ?? (typeof body === 'string' && body ? body.slice(0, 500) : `upstream returned ${status}`)
  return { status, code: b.code === undefined ? undefined : String(b.code), message }
}

/**
 * Coze's chat stream → IR: `conversation.message.delta` of the `answer` type carries the text (and a reasoning
 * model's `reasoning_content`), `conversation.chat.completed` the usage, `conversation.chat.failed` and `error` end
 * it with their message. Other message types (follow-up suggestions, verbose plugin output) and Coze's own
 * `conversation.chat.created` / `in_progress` / `done` are skipped.
 */
export class CozeStreamDecoder implements StreamDecoder {
  private started = false
  private blocks = new TextBlocks()

  push(ev: SseEvent): StreamEvent[] {
    if (this.blocks.done) return []
    const d = eventJson(ev)
    if (!d) return []
    const out: StreamEvent[] = []
    if (!this.started) {
      this.started = true
      out.push({ type: 'start', id: str(d.chat_id) ?? str(d.id) ?? newId('chat_coze_'), model: '' })
    }
    switch (ev.event) {
      case 'conversation.message.delta':
        if (d.type !== undefined && d.type !== 'answer') break
        this.blocks.delta('reasoning', str(d.reasoning_content) ?? '', out)
        this.blocks.delta('text', str(d.content) ?? '', out)
        break
      case 'conversation.chat.completed':
        this.blocks.usage = usageFromCoze(d.usage)
        out.push({ type: 'usage', usage: this.blocks.usage })
        this.blocks.finish(out)
        break
      case 'conversation.chat.failed':
        this.fail(rec(d.last_error), out)
        break
      case 'error':
        this.fail(d, out)
        break
    }
    return out
  }

  end(): StreamEvent[] {
    if (this.blocks.done) return []
    const out: StreamEvent[] = []
    this.blocks.finish(out)
    return out
  }

  private fail(error: Record<string, unknown>, out: StreamEvent[]): void {
    this.blocks.done = true
    out.push({ type: 'error', error: { status: 502, code: error.code === undefined ? undefined : String(error.code), message: str(error.msg) ?? 'Coze reported an error' } })
  }
}

/** Usage of a Coze stream: the `conversation.chat.completed` event's. */
export class CozeUsageTap implements UsageTap {
  private u: Usage | undefined

  push(ev: SseEvent): boolean {
    if (ev.event !== 'conversation.chat.completed') return true
    const d = eventJson(ev)
    if (!d) return false
    this.u = usageFromCoze(d.usage)
    return true
  }

  usage(): Usage | undefined {
    return this.u
  }
}
