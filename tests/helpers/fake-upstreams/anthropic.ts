/** Fake Anthropic Messages API: POST /v1/messages, /v1/messages/count_tokens, GET /v1/models. */
import { bearer, isObject, json, randomString } from './shared'
import type { Ctx, Plan, Protocol, RecordedRequest } from './types'

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  504: 'timeout_error',
  529: 'overloaded_error',
}
const MESSAGES: Record<string, string> = {
  authentication_error: 'invalid x-api-key',
  rate_limit_error: 'Number of request tokens has exceeded your per-minute rate limit',
  api_error: 'Internal server error',
  overloaded_error: 'Overloaded',
  not_found_error: 'Not found',
}

const requestId = () => 'req_011C' + randomString(20)

function errorBody(status: number, type?: string, message?: string) {
  const t = type ?? ERROR_TYPES[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error')
  return { type: 'error', error: { type: t, message: message ?? MESSAGES[t] ?? 'Error' }, request_id: requestId() }
}

const STOP: Record<Plan['finish'], string> = {
  stop: 'end_turn',
  length: 'max_tokens',
  tool_calls: 'tool_use',
  content_filter: 'refusal',
}

/** Anthropic only returns thinking blocks when the request enables thinking. */
const thinkingOn = (body: any) => isObject(body?.thinking) && body.thinking.type !== 'disabled'

function usage(p: Plan, output: number) {
  return {
    input_tokens: p.usage.input,
    cache_creation_input_tokens: p.usage.cacheWrite,
    cache_read_input_tokens: p.usage.cacheRead,
    cache_creation: { ephemeral_5m_input_tokens: p.usage.cacheWrite - p.usage.cacheWrite1h, ephemeral_1h_input_tokens: p.usage.cacheWrite1h },
    output_tokens: output,
    service_tier: 'standard',
  }
}

function toolIds(p: Plan): string[] {
  return p.tools.map((t) => t.id ?? 'toolu_01' + randomString(22))
}

function invalid(message: string) {
  return json(errorBody(400, 'invalid_request_error', message), 400, { 'request-id': requestId() })
}

export const anthropic: Protocol = {
  error(status, type, message, headers = {}) {
    return json(errorBody(status, type, message), status, { 'request-id': requestId(), ...headers })
  },

  auth(rec, keys) {
    if (keys.length === 0) return undefined
    const key = rec.headers['x-api-key'] ?? bearer(rec)
    if (key !== undefined && keys.includes(key)) return undefined
    return this.error(401, 'authentication_error', key === undefined ? 'x-api-key header is required' : 'invalid x-api-key')
  },

  validate(rec: RecordedRequest) {
    const version = rec.headers['anthropic-version']
    if (!version) return invalid('anthropic-version: header is required')
    if (!/^\d{4}-\d{2}-\d{2}$/.test(version)) return invalid(`anthropic-version: invalid value '${version}'`)
    const b = rec.json
    if (!isObject(b)) return invalid('There was an issue with your request body: expected a JSON object')
    if (typeof b.model !== 'string' || !b.model) return invalid('model: Field required')
    if (!Array.isArray(b.messages)) return invalid('messages: Field required')
    if (rec.kind === 'count_tokens') return undefined
    if (b.max_tokens === undefined) return invalid('max_tokens: Field required')
    if (!Number.isInteger(b.max_tokens) || b.max_tokens < 1) return invalid('max_tokens: Input should be greater than or equal to 1')
    if (b.messages.length === 0) return invalid('messages: at least one message is required')
    if (typeof b.temperature === 'number' && (b.temperature < 0 || b.temperature > 1))
      return invalid('temperature: Input should be less than or equal to 1')
    if (b.thinking?.type === 'enabled' && !(b.thinking.budget_tokens < b.max_tokens))
      return invalid('`max_tokens` must be greater than `thinking.budget_tokens`')
    // a system turn inside messages needs the mid-conversation-system beta (Claude Code sends it)
    const systemTurns = (rec.headers['anthropic-beta'] ?? '').includes('mid-conversation-system')
    for (const [i, m] of b.messages.entries()) {
      if (!isObject(m) || (m.role !== 'user' && m.role !== 'assistant' && !(m.role === 'system' && systemTurns)))
        return invalid(`messages.${i}.role: Input should be 'user' or 'assistant'`)
      if (!Array.isArray(m.content)) continue
      for (const [j, block] of m.content.entries()) {
        if (block?.type === 'thinking' && (typeof block.signature !== 'string' || block.signature === ''))
          return invalid(`messages.${i}.content.${j}: Invalid \`signature\` in \`thinking\` block`)
      }
    }
    return undefined
  },

  isStream: (rec) => rec.json?.stream === true,

  headers: () => ({ 'request-id': requestId() }),

  body({ body, plan: p }: Ctx) {
    const ids = toolIds(p)
    const content: unknown[] = []
    if (p.reasoning.length > 0 && thinkingOn(body))
      content.push({ type: 'thinking', thinking: p.reasoning.join(''), signature: p.signature })
    if (p.text.length > 0) content.push({ type: 'text', text: p.text.join('') })
    p.tools.forEach((t, i) => content.push({ type: 'tool_use', id: ids[i], name: t.name, input: JSON.parse(t.args) }))
    return {
      id: 'msg_01' + randomString(22),
      type: 'message',
      role: 'assistant',
      model: p.model,
      content,
      stop_reason: p.rawFinish ?? STOP[p.finish],
      stop_sequence: null,
      usage: usage(p, p.usage.output),
    }
  },

  frames({ body, plan: p }: Ctx) {
    const out: string[] = []
    const ev = (data: { type: string } & Record<string, unknown>) => out.push(`event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`)
    ev({
      type: 'message_start',
      message: {
        id: 'msg_01' + randomString(22), type: 'message', role: 'assistant', model: p.model, content: [],
        stop_reason: null, stop_sequence: null, usage: usage(p, 1),
      },
    })
    let index = 0
    const block = (start: object, deltas: object[]) => {
      ev({ type: 'content_block_start', index, content_block: start })
      if (index === 0) ev({ type: 'ping' })
      for (const delta of deltas) ev({ type: 'content_block_delta', index, delta })
      ev({ type: 'content_block_stop', index })
      index++
    }
    if (p.reasoning.length > 0 && thinkingOn(body)) {
      const deltas: object[] = p.reasoning.map((thinking) => ({ type: 'thinking_delta', thinking }))
      if (p.signature) deltas.push({ type: 'signature_delta', signature: p.signature })
      block({ type: 'thinking', thinking: '', signature: '' }, deltas)
    }
    if (p.text.length > 0) block({ type: 'text', text: '' }, p.text.map((text) => ({ type: 'text_delta', text })))
    const ids = toolIds(p)
    p.tools.forEach((t, i) =>
      block(
        { type: 'tool_use', id: ids[i], name: t.name, input: {} },
        t.fragments.map((partial_json) => ({ type: 'input_json_delta', partial_json })),
      ),
    )
    const { service_tier: _t, cache_creation: _c, ...finalUsage } = usage(p, p.usage.output)
    ev({ type: 'message_delta', delta: { stop_reason: p.rawFinish ?? STOP[p.finish], stop_sequence: null }, usage: finalUsage })
    ev({ type: 'message_stop' })
    return out
  },

  streamError(_ctx, type = 'overloaded_error', message) {
    const data = { type: 'error', error: { type, message: message ?? MESSAGES[type] ?? 'Error' }, request_id: requestId() }
    return [`event: error\ndata: ${JSON.stringify(data)}\n\n`]
  },
}

/** POST /v1/messages/count_tokens: a rough count, or the scenario's input usage when set. */
export function countTokens(rec: RecordedRequest, input?: number): Response {
  const estimate = Math.max(1, Math.ceil(rec.body.length / 4))
  return json({ input_tokens: input ?? estimate }, 200, { 'request-id': requestId() })
}

/** GET /v1/models in Anthropic's shape. */
export function listModels(models: string[]): Response {
  const data = models.map((id) => ({ type: 'model', id, display_name: id, created_at: '2025-05-22T00:00:00Z' }))
  return json({ data, has_more: false, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null })
}
