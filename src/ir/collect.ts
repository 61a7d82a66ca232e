import type { AssistantPart, ProviderOptions, ReasoningPart, TextPart, ToolCallPart } from './request.ts'
import type { FinishReason, IrResponse } from './response.ts'
import type { StreamEvent } from './stream.ts'
import { emptyUsage, type Usage } from './usage.ts'

/**
 * Folds a stream of IR events into a response, so non-stream and stream share one code path.
 * Blocks are placed in the order they started; deltas for unknown ids open the block implicitly.
 * Tool calls whose arguments are empty get `{}`.
 */
export function collect(events: Iterable<StreamEvent>): IrResponse & { error?: { message: string; status?: number; code?: string } } {
  let id = ''
  let model = ''
  let created: number | undefined
  let usage: Usage | undefined
  let finish: FinishReason | undefined
  let error: { message: string; status?: number; code?: string } | undefined
  const parts: AssistantPart[] = []
  const text = new Map<string, TextPart>()
  const reasoning = new Map<string, ReasoningPart>()
  const tools = new Map<string, ToolCallPart>()

  const textFor = (bid: string): TextPart => {
    let p = text.get(bid)
    if (!p) {
      p = { type: 'text', text: '' }
      text.set(bid, p)
      parts.push(p)
    }
    return p
  }
  const reasoningFor = (bid: string): ReasoningPart => {
    let p = reasoning.get(bid)
    if (!p) {
      p = { type: 'reasoning', text: '' }
      reasoning.set(bid, p)
      parts.push(p)
    }
    return p
  }
  const toolFor = (bid: string, name = ''): ToolCallPart => {
    let p = tools.get(bid)
    if (!p) {
      p = { type: 'tool-call', id: bid, name, arguments: '' }
      tools.set(bid, p)
      parts.push(p)
    }
    return p
  }
  const withOptions = (p: { providerOptions?: ProviderOptions }, po?: ProviderOptions) => {
    if (po && Object.keys(po).length) p.providerOptions = { ...p.providerOptions, ...po }
  }

  for (const e of events) {
    switch (e.type) {
      case 'start':
        id = e.id
        model = e.model
        created = e.created
        break
      case 'text-start':
        textFor(e.id)
        break
      case 'text-delta':
        textFor(e.id).text += e.delta
        break
      case 'text-end':
        withOptions(textFor(e.id), e.providerOptions)
        break
      case 'reasoning-start': {
        const p = reasoningFor(e.id)
        if (e.itemId) p.id = e.itemId
        break
      }
      case 'reasoning-delta':
        reasoningFor(e.id).text += e.delta
        break
      case 'reasoning-end': {
        const p = reasoningFor(e.id)
        if (e.signature) p.signature = e.signature
        if (e.encrypted) p.encrypted = e.encrypted
        if (e.redacted) p.redacted = true
        if (e.origin) p.origin = e.origin
        if (e.itemId) p.id = e.itemId
        break
      }
      case 'tool-input-start':
        toolFor(e.id, e.name).name = e.name
        break
      case 'tool-input-delta':
        toolFor(e.id).arguments += e.delta
        break
      case 'tool-input-end':
        withOptions(toolFor(e.id), e.providerOptions)
        break
      case 'usage':
        usage = e.usage
        break
      case 'finish':
        finish = e.reason
        if (e.usage) usage = e.usage
        break
      case 'error':
        error = { ...e.error }
        break
    }
  }
  for (const t of tools.values()) if (t.arguments.trim() === '') t.arguments = '{}'
  const out: IrResponse & { error?: { message: string; status?: number; code?: string } } = {
    id,
    model,
    parts: parts.filter((p) => !(p.type === 'text' && p.text === '' && !p.providerOptions)),
    finish: finish ?? (error ? { unified: 'error' } : { unified: 'other' }),
    usage: usage ?? emptyUsage(),
  }
  if (created !== undefined) out.created = created
  if (error) out.error = error
  return out
}

/**
 * The inverse of `collect`: replays a complete response as stream events, so a non-stream upstream answer
 * can be sent to a client that asked for a stream.
 */
export function responseToEvents(res: IrResponse): StreamEvent[] {
  const events: StreamEvent[] = [{ type: 'start', id: res.id, model: res.model, created: res.created }]
  let n = 0
  let toolIndex = 0
  for (const p of res.parts) {
    const bid = `b${n++}`
    switch (p.type) {
      case 'text':
        if (p.text === '') break
        events.push({ type: 'text-start', id: bid })
        events.push({ type: 'text-delta', id: bid, delta: p.text })
        events.push(p.providerOptions ? { type: 'text-end', id: bid, providerOptions: p.providerOptions } : { type: 'text-end', id: bid })
        break
      case 'reasoning': {
        events.push(p.id ? { type: 'reasoning-start', id: bid, itemId: p.id } : { type: 'reasoning-start', id: bid })
        if (p.text) events.push({ type: 'reasoning-delta', id: bid, delta: p.text })
        const end: StreamEvent = { type: 'reasoning-end', id: bid }
        if (p.signature) end.signature = p.signature
        if (p.encrypted) end.encrypted = p.encrypted
        if (p.redacted) end.redacted = true
        if (p.origin) end.origin = p.origin
        if (p.id) end.itemId = p.id
        events.push(end)
        break
      }
      case 'tool-call':
        events.push({ type: 'tool-input-start', id: p.id, name: p.name, index: toolIndex++ })
        if (p.arguments) events.push({ type: 'tool-input-delta', id: p.id, delta: p.arguments })
        events.push(p.providerOptions ? { type: 'tool-input-end', id: p.id, providerOptions: p.providerOptions } : { type: 'tool-input-end', id: p.id })
        break
      case 'image':
        // Streams have no image deltas in the neutral form; non-stream encoders carry images.
        break
    }
  }
  events.push({ type: 'usage', usage: res.usage })
  events.push({ type: 'finish', reason: res.finish, usage: res.usage })
  return events
}
