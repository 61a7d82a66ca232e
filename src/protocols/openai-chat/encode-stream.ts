import { newId, type StreamEvent, type Usage } from '../../ir/index.ts'
import { SSE_DONE, sseData } from '../sse.ts'
import type { StreamEncoder, StreamEncoderOptions } from '../types.ts'
import { chatId } from './encode-response.ts'
import { renderError } from './errors.ts'
import { finishToChat, usageToChat } from './maps.ts'

/**
 * IR stream → chat.completion.chunk frames: `role: "assistant"` in the first delta, content /
 * reasoning_content deltas, tool_calls deltas (index, id, name first, then argument fragments), a final chunk
 * with finish_reason, a usage chunk (`choices: []`) when the client asked for include_usage, then `[DONE]`.
 */
export class ChatStreamEncoder implements StreamEncoder {
  private id = ''
  private created = Math.floor(Date.now() / 1000)
  private model: string
  private readonly gen: (prefix: string) => string
  private started = false
  private finished = false
  private tools = new Map<string, number>()
  private usage: Usage | undefined

  constructor(private readonly opts: StreamEncoderOptions = {}) {
    this.model = opts.model ?? opts.request?.model ?? ''
    this.gen = opts.newId ?? newId
    if (opts.now) this.created = opts.now()
  }

  private chunk(delta: Record<string, unknown>, finish: string | null = null): string {
    return sseData({
      id: this.id,
      object: 'chat.completion.chunk',
      created: this.created,
      model: this.model,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    })
  }

  private ensureStarted(out: string[]): void {
    if (this.started) return
    this.started = true
    if (!this.id) this.id = this.gen('chatcmpl-')
    out.push(this.chunk({ role: 'assistant', content: '' }))
  }

  push(e: StreamEvent): string[] {
    if (this.finished) return []
    const out: string[] = []
    switch (e.type) {
      case 'start':
        if (!this.started) {
          this.id = chatId(e.id)
          if (e.created) this.created = e.created
          if (!this.model) this.model = e.model
        }
        this.ensureStarted(out)
        break
      case 'text-delta':
        if (!e.delta) break
        this.ensureStarted(out)
        out.push(this.chunk({ content: e.delta }))
        break
      case 'reasoning-delta':
        if (!e.delta) break
        this.ensureStarted(out)
        out.push(this.chunk({ reasoning_content: e.delta }))
        break
      case 'tool-input-start': {
        this.ensureStarted(out)
        const index = this.tools.size
        this.tools.set(e.id, index)
        out.push(this.chunk({ tool_calls: [{ index, id: e.id, type: 'function', function: { name: e.name, arguments: '' } }] }))
        break
      }
      case 'tool-input-delta': {
        const index = this.tools.get(e.id)
        if (index === undefined || !e.delta) break
        out.push(this.chunk({ tool_calls: [{ index, function: { arguments: e.delta } }] }))
        break
      }
      case 'usage':
        this.usage = e.usage
        break
      case 'finish': {
        this.ensureStarted(out)
        if (e.usage) this.usage = e.usage
        out.push(this.chunk({}, finishToChat(e.reason)))
        if (this.opts.request?.includeUsage && this.usage)
          out.push(
            sseData({ id: this.id, object: 'chat.completion.chunk', created: this.created, model: this.model, choices: [], usage: usageToChat(this.usage) }),
          )
        out.push(SSE_DONE)
        this.finished = true
        break
      }
      case 'error':
        out.push(sseData(renderError({ status: e.error.status ?? 500, message: e.error.message, code: e.error.code })))
        this.finished = true
        break
    }
    return out
  }

  end(): string[] {
    if (this.finished) return []
    this.finished = true
    return [sseData(renderError({ status: 502, message: 'upstream stream ended unexpectedly' }))]
  }
}
