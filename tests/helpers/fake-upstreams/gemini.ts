/** Fake Gemini API: POST /v1beta/models/{model}:generateContent, :streamGenerateContent?alt=sse, GET /v1beta/models. */
import { isObject, json, randomString } from './shared'
import type { Ctx, Plan, Protocol } from './types'

const STATUS: Record<number, { status: string; message: string }> = {
  400: { status: 'INVALID_ARGUMENT', message: 'Request contains an invalid argument.' },
  401: { status: 'UNAUTHENTICATED', message: 'Request had invalid authentication credentials.' },
  403: { status: 'PERMISSION_DENIED', message: 'The caller does not have permission' },
  404: { status: 'NOT_FOUND', message: 'Requested entity was not found.' },
  429: { status: 'RESOURCE_EXHAUSTED', message: 'Resource has been exhausted (e.g. check quota).' },
  500: { status: 'INTERNAL', message: 'An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting' },
  503: { status: 'UNAVAILABLE', message: 'The model is overloaded. Please try again later.' },
  504: { status: 'DEADLINE_EXCEEDED', message: 'The request timed out. Please try again.' },
}

function errorBody(code: number, status?: string, message?: string, details?: unknown[]) {
  const d = STATUS[code] ?? { status: code >= 500 ? 'INTERNAL' : 'INVALID_ARGUMENT', message: 'Error' }
  return { error: { code, message: message ?? d.message, status: status ?? d.status, ...(details ? { details } : {}) } }
}

const invalid = (message: string) => json(errorBody(400, 'INVALID_ARGUMENT', message), 400)

const FINISH: Record<Plan['finish'], string> = { stop: 'STOP', length: 'MAX_TOKENS', tool_calls: 'STOP', content_filter: 'SAFETY' }

/** Gemini only returns thought text when thinkingConfig.includeThoughts is set. */
const includeThoughts = (body: any) => body?.generationConfig?.thinkingConfig?.includeThoughts === true

function usageMetadata(p: Plan, final: boolean) {
  const prompt = p.usage.input + p.usage.cacheRead + p.usage.cacheWrite
  const thoughts = p.usage.reasoning
  const candidates = Math.max(0, p.usage.output - thoughts)
  const u: Record<string, unknown> = { promptTokenCount: prompt }
  if (final) u.candidatesTokenCount = candidates
  u.totalTokenCount = final ? prompt + candidates + thoughts : prompt + thoughts
  if (p.usage.cacheRead > 0) u.cachedContentTokenCount = p.usage.cacheRead
  u.promptTokensDetails = [{ modality: 'TEXT', tokenCount: prompt }]
  if (p.usage.cacheRead > 0) u.cacheTokensDetails = [{ modality: 'TEXT', tokenCount: p.usage.cacheRead }]
  if (thoughts > 0) u.thoughtsTokenCount = thoughts
  return u
}

function functionCallParts(p: Plan) {
  return p.tools.map((t) => ({ functionCall: { ...(t.id ? { id: t.id } : {}), name: t.name, args: JSON.parse(t.args) } }))
}

export const gemini: Protocol = {
  error(status, type, message, headers = {}) {
    return json(errorBody(status, type, message), status, headers)
  },

  auth(rec, keys) {
    if (keys.length === 0) return undefined
    const key = rec.headers['x-goog-api-key'] ?? rec.query['key']
    if (key !== undefined && keys.includes(key)) return undefined
    if (key === undefined) {
      return json(errorBody(403, 'PERMISSION_DENIED', "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API."), 403)
    }
    // Gemini answers a wrong key with 400 INVALID_ARGUMENT / API_KEY_INVALID, not 401.
    const details = [{
      '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com',
      metadata: { service: 'generativelanguage.googleapis.com' },
    }]
    return json(errorBody(400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.', details), 400)
  },

  validate(rec) {
    const b = rec.json
    if (!isObject(b)) return invalid('Invalid JSON payload received. Unexpected token.')
    if (!Array.isArray(b.contents) || b.contents.length === 0)
      return invalid('* GenerateContentRequest.contents: contents is not specified\n')
    const gemini3 = (rec.model ?? '').startsWith('gemini-3')
    for (const [i, c] of b.contents.entries()) {
      if (!isObject(c) || !Array.isArray(c.parts) || c.parts.length === 0)
        return invalid(`* GenerateContentRequest.contents[${i}].parts: contents.parts must not be empty.\n`)
      if (c.role !== undefined && c.role !== 'user' && c.role !== 'model') return invalid('Please use a valid role: user, model.')
      const firstCall = c.parts.findIndex((part: any) => isObject(part?.functionCall))
      if (gemini3 && c.role === 'model' && firstCall >= 0 && !c.parts[firstCall].thoughtSignature) {
        return invalid(`Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call \`default_api:${c.parts[firstCall].functionCall.name}\` , position ${i + 1}. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.`)
      }
    }
    return undefined
  },

  isStream: (rec) => rec.path.endsWith(':streamGenerateContent'),

  headers: () => ({}),

  body({ body, plan: p }: Ctx) {
    const parts: Record<string, unknown>[] = []
    if (p.reasoning.length > 0 && includeThoughts(body)) parts.push({ text: p.reasoning.join(''), thought: true })
    const answer: Record<string, unknown>[] = []
    if (p.text.length > 0) answer.push({ text: p.text.join('') })
    answer.push(...functionCallParts(p))
    if (p.signature && answer[0]) answer[0].thoughtSignature = p.signature
    parts.push(...answer)
    return {
      candidates: [{ content: { parts, role: 'model' }, finishReason: p.rawFinish ?? FINISH[p.finish], index: 0 }],
      usageMetadata: usageMetadata(p, true),
      modelVersion: p.model,
      responseId: randomString(22),
    }
  },

  frames({ body, plan: p }: Ctx) {
    const responseId = randomString(22)
    const chunks: Record<string, unknown>[][] = []
    if (includeThoughts(body)) for (const text of p.reasoning) chunks.push([{ text, thought: true }])
    for (const text of p.text) chunks.push([{ text }])
    if (p.tools.length > 0) chunks.push(functionCallParts(p)) // Gemini sends whole calls, all in one chunk
    const firstAnswer = chunks.findIndex((parts) => parts[0]?.thought !== true)
    if (p.signature) {
      if (firstAnswer >= 0) chunks[firstAnswer]![0]!.thoughtSignature = p.signature
      else chunks.push([{ text: '', thoughtSignature: p.signature }])
    }
    if (chunks.length === 0) chunks.push([{ text: '' }])
    return chunks.map((parts, i) => {
      const last = i === chunks.length - 1
      const candidate: Record<string, unknown> = { content: { parts, role: 'model' } }
      if (last) candidate.finishReason = p.rawFinish ?? FINISH[p.finish]
      candidate.index = 0
      const data = { candidates: [candidate], usageMetadata: usageMetadata(p, last), modelVersion: p.model, responseId }
      return `data: ${JSON.stringify(data)}\r\n\r\n`
    })
  },

  streamError(_ctx, type = 'INTERNAL', message) {
    const code = Number(Object.entries(STATUS).find(([, v]) => v.status === type)?.[0] ?? 500)
    return [`data: ${JSON.stringify(errorBody(code, type, message))}\r\n\r\n`]
  },
}

/** GET /v1beta/models */
export function listModels(models: string[]): Response {
  return json({
    models: models.map((id) => ({
      name: `models/${id}`, version: '001', displayName: id, description: `Fake ${id}`,
      inputTokenLimit: 1048576, outputTokenLimit: 65536,
      supportedGenerationMethods: ['generateContent', 'countTokens', 'createCachedContent', 'batchGenerateContent'],
      temperature: 1, topP: 0.95, topK: 64, maxTemperature: 2, thinking: true,
    })),
  })
}
