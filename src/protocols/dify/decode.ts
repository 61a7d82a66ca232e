import { converted, newId, tokenCount, type Converted, type FinishReason, type IrResponse, type StreamEvent, type Usage } from '../../ir/index.ts'
import type { SseEvent } from '../sse.ts'
import { eventJson, jsonBody, rec, str } from '../shared.ts'
import type { StreamDecoder, UsageTap, WireError } from '../types.ts'
import { TextBlocks } from '../text-blocks.ts'

const STOP: FinishReason = { unified: 'stop' }

/** Dify's `metadata.usage` (`prompt_tokens`, `completion_tokens`, OpenAI's counts) as IR usage. */
function usageFromDify(usage: unknown): Usage {
  const u = rec(usage)
  return { input: { noCache: tokenCount(u.prompt_tokens), cacheRead: 0, cacheWrite: 0 }, output: { text: tokenCount(u.completion_tokens), reasoning: 0 } }
}

/** A blocking answer (`{event: "message", message_id, answer, metadata: {usage}}`) → IR. */
export function decodeResponse(body: unknown): Converted<IrResponse> {
  const b = rec(body)
  const answer = str(b.answer) ?? ''
  return converted({ id: str(b.message_id) ?? newId('msg_dify_'), model: '', parts: answer ? [{ type: 'text', text: answer }] : [], finish: STOP, usage: usageFromDify(rec(b.metadata).usage) })
}

export function usageFromBody(body: unknown): Usage | undefined {
  const usage = rec(rec(body).metadata).usage
  return usage && typeof usage === 'object' ? usageFromDify(usage) : undefined
}

/** Dify's error bodies: `{code, message, status}`. */
export function parseError(status: number, body: unknown): WireError {
  const b = rec(jsonBody(body))
  const message = str(b.message) ?? (typeof body === 'string' && body ? body.slice(0, 500) : `upstream returned ${status}`)
  return { status, code: str(b.code) ?? (status >= 500 ? 'upstream_error' : 'invalid_request'), message }
}

/**
 * Dify's chat stream → IR: `message` and `agent_message` carry the answer's text, `message_end` the usage, `error`
 * ends the stream with its message; workflow, node, agent-thought, file, TTS and ping events are Dify's own and
 * skipped. `message_replace` (content moderation replacing the answer) is shown as what follows.
 */
export class DifyStreamDecoder implements StreamDecoder {
  private started = false
  private blocks = new TextBlocks()

  push(ev: SseEvent): StreamEvent[] {
    if (this.blocks.done) return []
    const d = eventJson(ev)
    if (!d) return []
    const out: StreamEvent[] = []
    if (!this.started) {
      this.started = true
      out.push({ type: 'start', id: str(d.message_id) ?? newId('msg_dify_'), model: '' })
    }
    switch (d.event) {
      case 'message':
      case 'agent_message':
      case 'message_replace':
        this.blocks.delta('text', str(d.answer) ?? '', out)
        break
      case 'message_end':
        this.blocks.usage = usageFromDify(rec(d.metadata).usage)
        out.push({ type: 'usage', usage: this.blocks.usage })
        this.blocks.finish(out)
        break
      case 'error':
        this.blocks.done = true
        out.push({ type: 'error', error: { status: typeof d.status === 'number' ? d.status : 502, code: str(d.code), message: str(d.message) ?? 'Dify reported an error' } })
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

}

/** Usage of a passthrough-free Dify stream: the `message_end` event's. */
export class DifyUsageTap implements UsageTap {
  private u: Usage | undefined

  push(ev: SseEvent): boolean {
    const d = eventJson(ev)
    if (!d) return ev.data.trim() === ''
    if (d.event === 'message_end') this.u = usageFromDify(rec(d.metadata).usage)
    return true
  }

  usage(): Usage | undefined {
    return this.u
  }
}
