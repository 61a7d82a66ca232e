/** Fake OpenAI Chat Completions: POST /v1/chat/completions (and Azure's /openai/deployments/{d}/chat/completions). */
import { bearer, isObject, json, maskKey, nowSeconds, promptTotal, randomHex, randomString } from './shared'
import type { Ctx, Plan, Protocol, RecordedRequest } from './types'

const TYPES: Record<number, { type: string; code: string | null; message: string }> = {
  400: { type: 'invalid_request_error', code: null, message: 'Invalid request' },
  401: { type: 'invalid_request_error', code: 'invalid_api_key', message: 'Incorrect API key provided' },
  403: { type: 'invalid_request_error', code: 'unsupported_country_region_territory', message: 'Country, region, or territory not supported' },
  404: { type: 'invalid_request_error', code: 'model_not_found', message: 'The model does not exist or you do not have access to it.' },
  429: { type: 'requests', code: 'rate_limit_exceeded', message: 'Rate limit reached for requests' },
  500: { type: 'server_error', code: null, message: 'The server had an error while processing your request. Sorry about that!' },
  503: { type: 'server_error', code: null, message: 'The engine is currently overloaded, please try again later' },
}

/** The vendor's error object: `{ error: { message, type, param, code } }`. */
export function openaiError(status: number, type?: string, message?: string, param: string | null = null, code?: string | null) {
  const d = TYPES[status] ?? { type: status >= 500 ? 'server_error' : 'invalid_request_error', code: null, message: 'Error' }
  return { error: { message: message ?? d.message, type: type ?? d.type, param, code: code === undefined ? d.code : code } }
}

export const openaiHeaders = () => ({ 'x-request-id': 'req_' + randomHex(32), 'openai-processing-ms': '42' })

export function openaiInvalid(message: string, param: string | null, code: string | null = null) {
  return json(openaiError(400, 'invalid_request_error', message, param, code), 400, openaiHeaders())
}

/** OpenAI-style bearer auth (Azure: `api-key` header) with the vendor's 401 bodies. */
export function openaiAuth(rec: RecordedRequest, keys: string[]): Response | undefined {
  if (keys.length === 0) return undefined
  const azure = rec.path.startsWith('/openai/')
  const key = (azure ? rec.headers['api-key'] : undefined) ?? bearer(rec)
  if (key !== undefined && keys.includes(key)) return undefined
  if (azure) {
    const message = 'Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.'
    return json({ error: { code: '401', message } }, 401)
  }
  const body = key === undefined
    ? openaiError(401, 'invalid_request_error', "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).", null, null)
    : openaiError(401, undefined, `Incorrect API key provided: ${maskKey(key)}. You can find your API key at https://platform.openai.com/account/api-keys.`)
  return json(body, 401, openaiHeaders())
}

/** OpenAI's usage object for chat completions. */
function chatUsage(p: Plan) {
  const prompt = promptTotal(p)
  return {
    prompt_tokens: prompt,
    completion_tokens: p.usage.output,
    total_tokens: prompt + p.usage.output,
    prompt_tokens_details: { cached_tokens: p.usage.cacheRead, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: p.usage.reasoning, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0,
    },
  }
}

const finishReason = (p: Plan) => p.rawFinish ?? p.finish
const toolIds = (p: Plan) => p.tools.map((t) => t.id ?? 'call_' + randomString(24))
const fingerprint = () => 'fp_' + randomHex(10)

export const openaiChat: Protocol = {
  error(status, type, message, headers = {}) {
    return json(openaiError(status, type, message), status, { ...openaiHeaders(), ...headers })
  },

  auth: openaiAuth,

  validate(rec) {
    const b = rec.json
    if (!isObject(b)) return openaiInvalid("We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON.)", null)
    const azure = rec.path.startsWith('/openai/')
    if (!azure && (typeof b.model !== 'string' || !b.model)) return openaiInvalid("Missing required parameter: 'model'.", 'model', 'missing_required_parameter')
    if (!Array.isArray(b.messages)) return openaiInvalid("Missing required parameter: 'messages'.", 'messages', 'missing_required_parameter')
    if (b.messages.length === 0) return openaiInvalid("Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.", 'messages', 'empty_array')
    const pending = new Set<string>()
    for (const [i, m] of b.messages.entries()) {
      if (!isObject(m) || !['system', 'developer', 'user', 'assistant', 'tool', 'function'].includes(m.role))
        return openaiInvalid(`Invalid value for 'messages[${i}].role'.`, `messages[${i}].role`, 'invalid_value')
      if (m.role === 'tool') {
        if (!pending.delete(m.tool_call_id))
          return openaiInvalid("Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.", `messages.[${i}].role`)
        continue
      }
      if (pending.size > 0)
        return openaiInvalid(`An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${[...pending].join(', ')}`, 'messages')
      if (m.role === 'assistant' && Array.isArray(m.tool_calls)) for (const c of m.tool_calls) pending.add(c?.id)
    }
    return undefined
  },

  isStream: (rec) => rec.json?.stream === true,

  headers: openaiHeaders,

  body({ plan: p }: Ctx) {
    const ids = toolIds(p)
    const message: Record<string, unknown> = { role: 'assistant', content: p.text.length > 0 ? p.text.join('') : null }
    if (p.reasoning.length > 0) message[p.s.chatReasoningField ?? 'reasoning_content'] = p.reasoning.join('')
    if (p.tools.length > 0)
      message.tool_calls = p.tools.map((t, i) => ({ id: ids[i], type: 'function', function: { name: t.name, arguments: t.args } }))
    Object.assign(message, { refusal: null, annotations: [] })
    return {
      id: 'chatcmpl-' + randomString(29),
      object: 'chat.completion',
      created: nowSeconds(),
      model: p.model,
      choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason(p) }],
      usage: chatUsage(p),
      service_tier: 'default',
      system_fingerprint: fingerprint(),
    }
  },

  frames({ body, plan: p }: Ctx) {
    const includeUsage = body?.stream_options?.include_usage === true
    const id = 'chatcmpl-' + randomString(29)
    const created = nowSeconds()
    const fp = fingerprint()
    const out: string[] = []
    const chunk = (delta: object, finish: string | null = null, choices?: unknown[]) => {
      const c: Record<string, unknown> = {
        id, object: 'chat.completion.chunk', created, model: p.model, service_tier: 'default', system_fingerprint: fp,
        choices: choices ?? [{ index: 0, delta, logprobs: null, finish_reason: finish }],
      }
      if (includeUsage) c.usage = choices ? chatUsage(p) : null
      out.push(`data: ${JSON.stringify(c)}\n\n`)
    }
    chunk({ role: 'assistant', content: '', refusal: null })
    const field = p.s.chatReasoningField ?? 'reasoning_content'
    for (const r of p.reasoning) chunk({ [field]: r })
    for (const content of p.text) chunk({ content })
    const ids = toolIds(p)
    p.tools.forEach((t, index) => {
      chunk({ tool_calls: [{ index, id: ids[index], type: 'function', function: { name: t.name, arguments: '' } }] })
      for (const a of t.fragments) chunk({ tool_calls: [{ index, function: { arguments: a } }] })
    })
    chunk({}, finishReason(p))
    if (includeUsage) chunk({}, null, [])
    out.push('data: [DONE]\n\n')
    return out
  },

  streamError(_ctx, type = 'server_error', message) {
    const body = openaiError(500, type, message ?? 'The server had an error while processing your request. Sorry about that!')
    return [`data: ${JSON.stringify(body)}\n\n`]
  },
}

/** GET /v1/models in OpenAI's shape. */
export function listModels(models: string[]): Response {
  return json({ object: 'list', data: models.map((id) => ({ id, object: 'model', created: 1715367049, owned_by: 'system' })) })
}
