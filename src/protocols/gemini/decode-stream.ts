import { newId } from '../../ir/index.ts'
import type { FinishReason, ProviderOptions, StreamEvent, Usage } from '../../ir/index.ts'
import type { SseEvent } from '../sse.ts'
import { arr, num, rec, str, eventJson } from '../shared.ts'
import type { StreamDecoder } from '../types.ts'
import { imageMarkdown } from '../image-markdown.ts'
import { partFromGemini } from './decode-response.ts'
import { finishFromGemini, usageFromGemini } from './maps.ts'

/** The block being filled; a text block remembers whether it holds text and whether an image came last. */
interface OpenBlock {
  kind: 'text' | 'reasoning'
  id: string
  signature?: string
  written?: boolean
  afterImage?: boolean
}

/** Upstream streamGenerateContent (alt=sse) → IR stream events. Each chunk is a GenerateContentResponse. */
export class GeminiStreamDecoder implements StreamDecoder {
  private started = false
  private open: OpenBlock | undefined
  private blockN = 0
  private toolIndex = 0
  private calledTools = false
  private usage: Usage | undefined
  private done = false

  push(ev: SseEvent): StreamEvent[] {
    if (this.done) return []
    const d = eventJson(ev)
    if (!d) return []
    const out: StreamEvent[] = []
    if (d.error !== undefined) {
      const e = rec(d.error)
      this.closeOpen(out)
      out.push({ type: 'error', error: { message: str(e.message) ?? 'upstream error', code: str(e.status), status: num(e.code) } })
      this.done = true
      return out
    }
    if (!this.started) {
      this.started = true
      out.push({ type: 'start', id: str(d.responseId) ?? '', model: str(d.modelVersion) ?? '' })
    }
    const cand = rec(arr(d.candidates)[0])
    // Gemini repeats usageMetadata (prompt count included) on every chunk: ahead of the chunk's parts, a
    // client whose start event carries input usage (Anthropic's message_start) gets the real prompt count
    if (d.usageMetadata !== undefined) {
      this.usage = usageFromGemini(d.usageMetadata)
      out.push({ type: 'usage', usage: this.usage })
    }
    for (const raw of arr(rec(cand.content).parts)) {
      const p = partFromGemini(rec(raw), () => newId('call_'))
      if (!p) continue
      if (p.type === 'tool-call') {
        this.closeOpen(out)
        this.calledTools = true
        out.push({ type: 'tool-input-start', id: p.id, name: p.name, index: this.toolIndex++ })
        out.push({ type: 'tool-input-delta', id: p.id, delta: p.arguments })
        out.push(p.providerOptions ? { type: 'tool-input-end', id: p.id, providerOptions: p.providerOptions } : { type: 'tool-input-end', id: p.id })
      } else if (p.type === 'reasoning') {
        if (this.open?.kind !== 'reasoning') {
          this.closeOpen(out)
          this.open = { kind: 'reasoning', id: `reasoning-${this.blockN++}` }
          out.push({ type: 'reasoning-start', id: this.open.id })
        }
        if (p.text) out.push({ type: 'reasoning-delta', id: this.open.id, delta: p.text })
        if (p.signature) this.open.signature = p.signature
      } else if (p.type === 'text') {
        const open = this.openText(out)
        if (p.text) {
          out.push({ type: 'text-delta', id: open.id, delta: (open.afterImage ? '\n\n' : '') + p.text })
          open.written = true
          open.afterImage = false
        }
        const sig = rec(p.providerOptions?.gemini).thoughtSignature
        if (typeof sig === 'string') open.signature = sig
      } else if (p.type === 'image') {
        // the neutral stream has no image events: an image is markdown text (a data URL) in the answer, as chat clients render it
        const open = this.openText(out)
        out.push({ type: 'text-delta', id: open.id, delta: `${open.written ? '\n\n' : ''}${imageMarkdown(p)}` })
        open.written = true
        open.afterImage = true
      }
    }
    const blocked = str(rec(d.promptFeedback).blockReason)
    const fr = str(cand.finishReason)
    if (fr || blocked) {
      this.closeOpen(out)
      const reason: FinishReason = blocked ? { unified: 'content_filter', raw: blocked } : finishFromGemini(fr, this.calledTools)
      const ev: StreamEvent = { type: 'finish', reason }
      if (this.usage) ev.usage = this.usage
      out.push(ev)
      this.done = true
    }
    return out
  }

  end(): StreamEvent[] {
    if (this.done) return []
    this.done = true
    const out: StreamEvent[] = []
    this.closeOpen(out)
    out.push({ type: 'error', error: { status: 502, code: 'upstream_incomplete', message: 'upstream stream ended without a finishReason' } })
    return out
  }

  private openText(out: StreamEvent[]): OpenBlock {
    if (this.open?.kind !== 'text') {
      this.closeOpen(out)
      this.open = { kind: 'text', id: `text-${this.blockN++}` }
      out.push({ type: 'text-start', id: this.open.id })
    }
    return this.open
  }

  private closeOpen(out: StreamEvent[]): void {
    const o = this.open
    if (!o) return
    this.open = undefined
    if (o.kind === 'reasoning') {
      const end: StreamEvent = { type: 'reasoning-end', id: o.id, origin: 'gemini' }
      if (o.signature) end.signature = o.signature
      out.push(end)
    } else {
      const po: ProviderOptions | undefined = o.signature ? { gemini: { thoughtSignature: o.signature } } : undefined
      out.push(po ? { type: 'text-end', id: o.id, providerOptions: po } : { type: 'text-end', id: o.id })
    }
  }
}
