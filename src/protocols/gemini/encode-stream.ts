import type { StreamEvent, Usage } from '../../ir/index.ts'
import { sseData } from '../sse.ts'
import type { StreamEncoder, StreamEncoderOptions } from '../types.ts'
import { renderError } from './errors.ts'
import { partToGemini } from './encode-response.ts'
import { finishToGemini, usageToGemini } from './maps.ts'

/**
 * IR stream → streamGenerateContent `data: {GenerateContentResponse}` frames. Text and thoughts are sent as
 * they arrive; a function call is sent whole when its arguments are complete (Gemini has no argument deltas).
 * The last frame carries finishReason and usageMetadata.
 */
export class GeminiStreamEncoder implements StreamEncoder {
  private model: string
  private id = ''
  private finished = false
  private tools = new Map<string, { name: string; args: string }>()
  private usage: Usage | undefined

  constructor(opts: StreamEncoderOptions = {}) {
    this.model = opts.model ?? opts.request?.model ?? ''
  }

  private frame(parts: Record<string, unknown>[], extra: Record<string, unknown> = {}, candExtra: Record<string, unknown> = {}): string {
    const body: Record<string, unknown> = {
      candidates: [{ content: { role: 'model', parts }, index: 0, ...candExtra }],
      ...extra,
      modelVersion: this.model,
    }
    if (this.id) body.responseId = this.id
    return sseData(body)
  }

  push(e: StreamEvent): string[] {
    if (this.finished) return []
    switch (e.type) {
      case 'start':
        if (!this.model) this.model = e.model
        this.id = e.id
        return []
      case 'text-delta':
        return e.delta ? [this.frame([{ text: e.delta }])] : []
      case 'text-end': {
        const sig = e.providerOptions?.gemini?.thoughtSignature
        return typeof sig === 'string' ? [this.frame([{ text: '', thoughtSignature: sig }])] : []
      }
      case 'reasoning-delta':
        return e.delta ? [this.frame([{ text: e.delta, thought: true }])] : []
      case 'reasoning-end': {
        if (!e.signature && !e.encrypted) return []
        const part = partToGemini({ type: 'reasoning', text: '', signature: e.signature, encrypted: e.encrypted, origin: e.origin })
        return part ? [this.frame([part])] : []
      }
      case 'tool-input-start':
        this.tools.set(e.id, { name: e.name, args: '' })
        return []
      case 'tool-input-delta': {
        const t = this.tools.get(e.id)
        if (t) t.args += e.delta
        return []
      }
      case 'tool-input-end': {
        const t = this.tools.get(e.id)
        if (!t) return []
        this.tools.delete(e.id)
        const part = partToGemini({ type: 'tool-call', id: e.id, name: t.name, arguments: t.args, providerOptions: e.providerOptions })
        return part ? [this.frame([part])] : []
      }
      case 'usage':
        this.usage = e.usage
        return []
      case 'finish': {
        if (e.usage) this.usage = e.usage
        this.finished = true
        const extra = this.usage ? { usageMetadata: usageToGemini(this.usage) } : {}
        return [this.frame([], extra, { finishReason: finishToGemini(e.reason) })]
      }
      case 'error':
        this.finished = true
        return [sseData(renderError({ status: e.error.status ?? 500, message: e.error.message }))]
      default:
        return []
    }
  }

  end(): string[] {
    if (this.finished) return []
    this.finished = true
    return [sseData(renderError({ status: 502, message: 'upstream stream ended unexpectedly' }))]
  }
}
