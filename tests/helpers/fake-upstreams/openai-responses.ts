/** Fake OpenAI Responses API: POST /v1/responses. */
import { openaiAuth, openaiError, openaiHeaders, openaiInvalid } from './openai-chat'
import { isObject, json, nowSeconds, promptTotal, randomHex } from './shared'
import type { Ctx, Plan, Protocol } from './types'

const itemId = (prefix: string) => `${prefix}_${randomHex(48)}`
/** the streamed argument fragments of each function_call item */
const FRAGMENTS = new WeakMap<object, string[]>()

export function responseUsage(p: Plan) {
  const input = promptTotal(p)
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: p.usage.cacheRead },
    output_tokens: p.usage.output,
    output_tokens_details: { reasoning_tokens: p.usage.reasoning },
    total_tokens: input + p.usage.output,
  }
}

/** The output items of the finished response, built once per reply so stream and final object agree. */
function outputItems({ body, plan: p }: Ctx) {
  const items: Record<string, any>[] = []
  if (p.reasoning.length > 0) {
    // summary text only when asked for (reasoning.summary); encrypted_content only when included.
    const summary = body?.reasoning?.summary ? [{ type: 'summary_text', text: p.reasoning.join('') }] : []
    const item: Record<string, any> = { id: itemId('rs'), type: 'reasoning', summary }
    const include: unknown = body?.include
    if (Array.isArray(include) && include.includes('reasoning.encrypted_content')) item.encrypted_content = p.signature || null
    items.push(item)
  }
  if (p.text.length > 0) {
    items.push({
      id: itemId('msg'), type: 'message', status: 'completed', role: 'assistant',
      content: [{ type: 'output_text', annotations: [], logprobs: [], text: p.text.join('') }],
    })
  }
  for (const t of p.tools) {
    const item = {
      id: itemId('fc'), type: 'function_call', status: 'completed', arguments: t.args,
      call_id: t.id ?? 'call_' + randomHex(24), name: t.name,
    }
    FRAGMENTS.set(item, t.fragments)
    items.push(item)
  }
  return items
}

/** The Response object, echoing the request's settings the way the API does. */
function responseObject(ctx: Ctx, id: string, created: number, status: string, output: unknown[], extra: object = {}) {
  const b = isObject(ctx.body) ? ctx.body : {}
  const p = ctx.plan
  const incomplete = status === 'incomplete'
    ? { reason: p.finish === 'content_filter' ? 'content_filter' : 'max_output_tokens' }
    : null
  return {
    id, object: 'response', created_at: created, status, background: false, error: null,
    incomplete_details: incomplete, instructions: b.instructions ?? null, max_output_tokens: b.max_output_tokens ?? null,
    max_tool_calls: null, model: p.model, output, parallel_tool_calls: b.parallel_tool_calls ?? true,
    previous_response_id: b.previous_response_id ?? null, prompt_cache_key: b.prompt_cache_key ?? null,
    reasoning: { effort: b.reasoning?.effort ?? null, summary: b.reasoning?.summary ?? null },
    safety_identifier: null, service_tier: 'default', store: b.store ?? true, temperature: b.temperature ?? 1,
    text: b.text ?? { format: { type: 'text' }, verbosity: 'medium' }, tool_choice: b.tool_choice ?? 'auto',
    tools: b.tools ?? [], top_logprobs: 0, top_p: b.top_p ?? 1, truncation: b.truncation ?? 'disabled',
    usage: status === 'completed' || status === 'incomplete' ? responseUsage(p) : null,
    user: null, metadata: b.metadata ?? {}, ...extra,
  }
}

const finalStatus = (p: Plan) => (p.finish === 'length' || p.finish === 'content_filter' ? 'incomplete' : 'completed')

export const openaiResponses: Protocol = {
  error(status, type, message, headers = {}) {
    return json(openaiError(status, type, message), status, { ...openaiHeaders(), ...headers })
  },

  auth: openaiAuth,

  validate(rec) {
    const b = rec.json
    if (!isObject(b)) return openaiInvalid('We could not parse the JSON body of your request.', null)
    if (typeof b.model !== 'string' || !b.model) return openaiInvalid("Missing required parameter: 'model'.", 'model', 'missing_required_parameter')
    if (b.input === undefined) return openaiInvalid("Missing required parameter: 'input'.", 'input', 'missing_required_parameter')
    if (typeof b.input !== 'string' && !Array.isArray(b.input))
      return openaiInvalid("Invalid type for 'input': expected one of a string or an array of input items.", 'input', 'invalid_type')
    return undefined
  },

  isStream: (rec) => rec.json?.stream === true,

  headers: openaiHeaders,

  body(ctx) {
    return responseObject(ctx, itemId('resp'), nowSeconds(), finalStatus(ctx.plan), outputItems(ctx))
  },

  frames(ctx) {
    const p = ctx.plan
    const id = itemId('resp')
    const created = nowSeconds()
    const out: string[] = []
    let seq = 0
    const ev = (type: string, data: object) =>
      out.push(`event: ${type}\ndata: ${JSON.stringify({ type, ...data, sequence_number: seq++ })}\n\n`)
    ev('response.created', { response: responseObject(ctx, id, created, 'in_progress', []) })
    ev('response.in_progress', { response: responseObject(ctx, id, created, 'in_progress', []) })
    const items = outputItems(ctx)
    items.forEach((item, output_index) => {
      const item_id = item.id as string
      if (item.type === 'reasoning') {
        ev('response.output_item.added', { output_index, item: { id: item_id, type: 'reasoning', summary: [] } })
        if (item.summary.length > 0) {
          const base = { item_id, output_index, summary_index: 0 }
          const text = p.reasoning.join('')
          ev('response.reasoning_summary_part.added', { ...base, part: { type: 'summary_text', text: '' } })
          for (const delta of p.reasoning) ev('response.reasoning_summary_text.delta', { ...base, delta })
          ev('response.reasoning_summary_text.done', { ...base, text })
          ev('response.reasoning_summary_part.done', { ...base, part: { type: 'summary_text', text } })
        }
      } else if (item.type === 'message') {
        ev('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', content: [] } })
        const base = { item_id, output_index, content_index: 0 }
        const empty = { type: 'output_text', annotations: [], logprobs: [], text: '' }
        ev('response.content_part.added', { ...base, part: empty })
        for (const delta of p.text) ev('response.output_text.delta', { ...base, delta, logprobs: [] })
        ev('response.output_text.done', { ...base, text: p.text.join(''), logprobs: [] })
        ev('response.content_part.done', { ...base, part: item.content[0] })
      } else {
        ev('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', arguments: '' } })
        for (const delta of FRAGMENTS.get(item) ?? []) ev('response.function_call_arguments.delta', { item_id, output_index, delta })
        ev('response.function_call_arguments.done', { item_id, output_index, arguments: item.arguments })
      }
      ev('response.output_item.done', { output_index, item })
    })
    const status = finalStatus(p)
    ev(`response.${status}`, { response: responseObject(ctx, id, created, status, items) })
    return out
  },

  streamError(ctx, type = 'server_error', message = 'An error occurred while processing your request.') {
    const id = itemId('resp')
    const created = nowSeconds()
    const frame = (type: string, seq: number, response: object) =>
      `event: ${type}\ndata: ${JSON.stringify({ type, response, sequence_number: seq })}\n\n`
    const failed = responseObject(ctx, id, created, 'failed', [], { error: { code: type, message } })
    return [
      frame('response.created', 0, responseObject(ctx, id, created, 'in_progress', [])),
      frame('response.in_progress', 1, responseObject(ctx, id, created, 'in_progress', [])),
      frame('response.failed', 2, failed),
    ]
  },
}
