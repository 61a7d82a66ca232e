/**
 * InvokeModelWithResponseStream → Anthropic SSE events. Each event-stream `chunk` message carries
 * `{"bytes": "<base64 of one Anthropic stream event's JSON>"}` (plus a padding field `p`); it becomes
 * `{event: <the JSON's type>, data: <the JSON text>}`, so the Anthropic decoder and usage tap read it unchanged.
 * Bedrock adds `amazon-bedrock-invocationMetrics` to the last event's JSON, which Anthropic readers ignore.
 * An exception message becomes Anthropic's `error` event.
 */
import { AwsEventStreamParser, type EventStreamEvent } from '../framing/aws-event-stream.ts'
import type { SseEvent } from '../sse.ts'
import { eventJson, str } from '../shared.ts'

const ERROR_TYPES: Record<string, string> = {
  throttlingexception: 'rate_limit_error',
  servicequotaexceededexception: 'rate_limit_error',
  serviceunavailableexception: 'overloaded_error',
  validationexception: 'invalid_request_error',
  accessdeniedexception: 'permission_error',
  resourcenotfoundexception: 'not_found_error',
}

/** Anthropic's `error` event for a Bedrock exception (`throttlingException` → `rate_limit_error` …). */
function anthropicErrorEvent(exceptionType: string, payload: string): SseEvent {
  const message = str(eventJson({ data: payload })?.message) ?? `Bedrock ${exceptionType}`
  const type = ERROR_TYPES[exceptionType.toLowerCase()] ?? 'api_error'
  return { event: 'error', data: JSON.stringify({ type: 'error', error: { type, message } }) }
}

const TYPE = /^\s*\{\s*"type"\s*:\s*"([^"\\]+)"/

/** One event-stream message → the Anthropic event it carries; undefined when a chunk carries none. */
function anthropicEventOf(ev: EventStreamEvent): SseEvent | 'skip' | undefined {
  if (ev.exception || /Exception$/.test(ev.event)) return anthropicErrorEvent(ev.event, ev.data)
  if (ev.event !== 'chunk') return 'skip'
  const bytes = str(eventJson(ev)?.bytes)
  if (bytes === undefined) return undefined
  const data = Buffer.from(bytes, 'base64').toString('utf8')
  // Anthropic puts `type` first; parse only when it does not
  const type = TYPE.exec(data)?.[1] ?? str(eventJson({ data })?.type)
  return type ? { event: type, data } : undefined
}

/** `SseParser`'s surface over an invoke stream's bytes: push chunks, get Anthropic SSE events. */
export class InvokeStreamParser {
  dispatched = 0
  private fault: string | undefined
  private faultAt = 0
  private readonly framing = new AwsEventStreamParser()

  get invalid(): string | undefined {
    return this.fault
  }
  get invalidAt(): number {
    return this.faultAt
  }

  push(chunk: Uint8Array): SseEvent[] {
    return this.map(this.framing.push(chunk))
  }

  idle(): boolean {
    return this.framing.idle()
  }

  end(): SseEvent[] {
    return this.map(this.framing.end())
  }

  private map(events: EventStreamEvent[]): SseEvent[] {
    const out: SseEvent[] = []
    for (const ev of events) {
      if (this.fault !== undefined) break
      const a = anthropicEventOf(ev)
      if (a === 'skip') continue
      if (!a) this.setFault('an invoke stream chunk without an Anthropic event')
      else {
        out.push(a)
        this.dispatched++
      }
    }
    if (this.framing.invalid !== undefined) this.setFault(this.framing.invalid)
    return out
  }

  private setFault(why: string): void {
    if (this.fault !== undefined) return
    this.fault = why
    this.faultAt = this.dispatched
  }
}
