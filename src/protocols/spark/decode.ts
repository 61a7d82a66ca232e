import { converted, emptyUsage, newId, tokenCount, type Converted, type FinishReason, type IrResponse, type StreamEvent, type Usage } from '../../ir/index.ts'
import type { SseEvent } from '../sse.ts'
import { eventJson, jsonBody, rec, str } from '../shared.ts'
import type { StreamDecoder, UsageTap, WireError } from '../types.ts'
import { TextBlocks } from '../text-blocks.ts'

const STOP: FinishReason = { unified: 'stop' }

/** Spark's usage (`payload.usage.text`: prompt_tokens, completion_tokens), in the frame of status 2. */
function usageOfFrame(frame: Record<string, unknown>): Usage | undefined {
  const text = rec(rec(rec(frame.payload).usage).text)
  if (text.prompt_tokens === undefined && text.completion_tokens === undefined) return undefined
  return { input: { noCache: tokenCount(text.prompt_tokens), cacheRead: 0, cacheWrite: 0 }, output: { text: tokenCount(text.completion_tokens), reasoning: 0 } }
}

/** A frame's error (`header.code` not 0), as the wire error the gateway reports. */
function frameError(frame: Record<string, unknown>): WireError | undefined {
  const header = rec(frame.header)
  if (header.code === undefined || header.code === 0) return undefined
  return { status: sparkStatusOfCode(Number(header.code)), code: String(header.code), message: `${str(header.message) ?? 'Spark reported an error'} (sid ${str(header.sid) ?? '-'})` }
}

/** iFlytek's error codes (their Web API docs) as HTTP statuses: auth and quota the channel's, content and length the request's. */
export function sparkStatusOfCode(code: number): number {
  if (code >= 11200 && code <= 11203) return code === 11200 ? 401 : 429
  if (code === 10013 || code === 10014 || code === 10019 || code === 10907) return 400
  return 502
}

/** Spark answers over a WebSocket only (`streamsOnly`): a JSON body is one frame. */
export function decodeResponse(body: unknown): Converted<IrResponse> {
  const frame = rec(body)
  const text = textItems(frame).map((item) => str(item.content) ?? '').join('')
  return converted({ id: str(rec(frame.header).sid) ?? newId('chat_spark_'), model: '', parts: text ? [{ type: 'text', text }] : [], finish: STOP, usage: usageOfFrame(frame) ?? emptyUsage() })
}

export function usageFromBody(body: unknown): Usage | undefined {
  return usageOfFrame(rec(body))
}

export function parseError(status: number, body: unknown): WireError {
  const b = rec(jsonBody(body))
  const carried = frameError(b)
  if (carried) return carried
  const message = str(b.message) ?? (typeof body === 'string' && body ? body.slice(0, 500) : `upstream returned ${status}`)
  return { status, message }
}

function textItems(frame: Record<string, unknown>): Record<string, unknown>[] {
  const text = rec(rec(frame.payload).choices).text
  return Array.isArray(text) ? text.map(rec) : []
}

function choicesStatus(frame: Record<string, unknown>): unknown {
  return rec(rec(frame.payload).choices).status ?? rec(frame.header).status
}

/**
 * Spark's frames (each carried as one SSE event by providers/spark) → IR: `payload.choices.text[].content` the
 * text (and a reasoning model's `reasoning_content`), the frame of status 2 the usage and the end; a frame whose
 * `header.code` is not 0 ends it with Spark's message.
 */
export class SparkStreamDecoder implements StreamDecoder {
  private started = false
  private blocks = new TextBlocks()

  push(ev: SseEvent): StreamEvent[] {
    if (this.blocks.done) return []
    const frame = eventJson(ev)
    if (!frame) return []
    const out: StreamEvent[] = []
    if (!this.started) {
      this.started = true
      out.push({ type: 'start', id: str(rec(frame.header).sid) ?? newId('chat_spark_'), model: '' })
    }
    const error = frameError(frame)
    if (error) {
      this.blocks.done = true
      out.push({ type: 'error', error })
      return out
    }
    for (const item of textItems(frame)) {
      this.blocks.delta('reasoning', str(item.reasoning_content) ?? '', out)
      this.blocks.delta('text', str(item.content) ?? '', out)
    }
    const usage = usageOfFrame(frame)
    if (usage) {
      this.blocks.usage = usage
      out.push({ type: 'usage', usage })
    }
    if (choicesStatus(frame) === 2) this.blocks.finish(out)
    return out
  }

  end(): StreamEvent[] {
    if (this.blocks.done) return []
    const out: StreamEvent[] = []
    this.blocks.finish(out)
    return out
  }

}

/** Usage of a Spark stream: its last frame's. */
export class SparkUsageTap implements UsageTap {
  private u: Usage | undefined

  push(ev: SseEvent): boolean {
    const frame = eventJson(ev)
    if (!frame) return false
    this.u = usageOfFrame(frame) ?? this.u
    return true
  }

  usage(): Usage | undefined {
    return this.u
  }
}
