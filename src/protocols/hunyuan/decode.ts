import { converted, newId, tokenCount, type Converted, type FinishReason, type IrResponse, type StreamEvent, type Usage } from '../../ir/index.ts'
import type { SseEvent } from '../sse.ts'
import { eventJson, jsonBody, rec, str } from '../shared.ts'
import type { StreamDecoder, UsageTap, WireError } from '../types.ts'

function finishOf(reason: unknown): FinishReason {
  if (reason === 'length') return { unified: 'length', raw: 'length' }
  if (reason === 'sensitive') return { unified: 'content_filter', raw: 'sensitive' }
  return { unified: 'stop', ...(typeof reason === 'string' && reason ? { raw: reason } : {}) }
}

/** Hunyuan's `Usage` (`PromptTokens`, `CompletionTokens`) as IR usage. */
function usageOf(usage: unknown): Usage {
  const u = rec(usage)
  return { input: { noCache: tokenCount(u.PromptTokens), cacheRead: 0, cacheWrite: 0 }, output: { text: tokenCount(u.CompletionTokens), reasoning: 0 } }
}

/** Tencent Cloud API 3.0 wraps every answer in `Response`; a failed call has `Response.Error` (with HTTP 200). */
const responseOf = (body: unknown) => rec(rec(jsonBody(body)).Response)

export function decodeResponse(body: unknown): Converted<IrResponse> {
  const r = responseOf(body)
  const choice = rec(Array.isArray(r.Choices) ? r.Choices[0] : undefined)
  const text = str(rec(choice.Message).Content) ?? ''
  const reasoning = str(rec(choice.Message).ReasoningContent) ?? ''
  const parts: IrResponse['parts'] = []
  if (reasoning) parts.push({ type: 'reasoning', text: reasoning })
  if (text) parts.push({ type: 'text', text })
  return converted({ id: str(r.Id) ?? newId('chatcmpl-hy'), model: '', parts, finish: finishOf(choice.FinishReason), usage: usageOf(r.Usage) })
}

export function usageFromBody(body: unknown): Usage | undefined {
  const usage = responseOf(body).Usage
  return usage && typeof usage === 'object' ? usageOf(usage) : undefined
}

/** `{Response: {Error: {Code, Message}, RequestId}}`, whatever the HTTP status. */
export function parseError(status: number, body: unknown): WireError {
  const error = rec(responseOf(body).Error)
  const message = str(error.Message) ?? (typeof body === 'string' && body ? body.slice(0, 500) : `upstream returned ${status}`)
  return { status, code: str(error.Code), message }
}

/** A 200 that carries `Response.Error` (Tencent answers auth and quota failures so): the error, else undefined. */
export function bodyError(body: unknown): WireError | undefined {
  const error = responseOf(body).Error
  return error && typeof error === 'object' ? parseError(400, body) : undefined
}

/**
 * Hunyuan's stream → IR: `data:` lines of `{Id, Choices: [{Delta: {Role, Content}, FinishReason}], Usage}`, the
 * usage cumulative on each (the last one counts); a line with `ErrorMsg` ends it with that message.
 */
export class HunyuanStreamDecoder implements StreamDecoder {
  private started = false
  private open = false
  private done = false
  private usage: Usage | undefined

  push(ev: SseEvent): StreamEvent[] {
    if (this.done) return []
    const d = eventJson(ev)
    if (!d) return []
    const out: StreamEvent[] = []
    if (!this.started) {
      this.started = true
      out.push({ type: 'start', id: str(d.Id) ?? newId('chatcmpl-hy'), model: '' })
    }
    const failure = rec(d.ErrorMsg)
    if (str(failure.Msg)) {
      this.done = true
      out.push({ type: 'error', error: { status: 502, code: failure.Code === undefined ? undefined : String(failure.Code), message: str(failure.Msg)! } })
      return out
    }
    if (d.Usage && typeof d.Usage === 'object') this.usage = usageOf(d.Usage)
    const choice = rec(Array.isArray(d.Choices) ? d.Choices[0] : undefined)
    const delta = str(rec(choice.Delta).Content) ?? ''
    if (delta) {
      if (!this.open) out.push({ type: 'text-start', id: 'text-0' })
      this.open = true
      out.push({ type: 'text-delta', id: 'text-0', delta })
    }
    if (typeof choice.FinishReason === 'string' && choice.FinishReason) this.finish(out, finishOf(choice.FinishReason))
    return out
  }

  end(): StreamEvent[] {
    if (this.done) return []
    const out: StreamEvent[] = []
    this.finish(out, finishOf('stop'))
    return out
  }

  private finish(out: StreamEvent[], reason: FinishReason): void {
    if (this.open) out.push({ type: 'text-end', id: 'text-0' })
    this.open = false
    this.done = true
    if (this.usage) out.push({ type: 'usage', usage: this.usage })
    out.push({ type: 'finish', reason, ...(this.usage ? { usage: this.usage } : {}) })
  }
}

/** Usage of a Hunyuan stream: the last `Usage` seen (each chunk carries the running total). */
export class HunyuanUsageTap implements UsageTap {
  private u: Usage | undefined

  push(ev: SseEvent): boolean {
    const d = eventJson(ev)
    if (!d) return ev.data.trim() === '[DONE]'
    if (d.Usage && typeof d.Usage === 'object') this.u = usageOf(d.Usage)
    return true
  }

  usage(): Usage | undefined {
    return this.u
  }
}
