/**
 * OpenAI's `POST /v1/moderations` on the operations fake (Bearer): `input` a string, strings (one result each) or
 * an array of text and image_url parts (one result for all of them, as omni-moderation does); `model` defaults to
 * omni-moderation-latest and the answer names the dated model. A text holding "kill" is flagged for violence.
 * Importing this file registers the route.
 */
import { addOperationRoute, type RecordedCall } from './operations'

const openAiError = (status: number, message: string, param: string | null = null) =>
  Response.json({ error: { message, type: 'invalid_request_error', param, code: null } }, { status })

const DATED: Record<string, string> = { 'omni-moderation-latest': 'omni-moderation-2024-09-26', 'text-moderation-latest': 'text-moderation-007' }

function result(texts: string[], images: number) {
  const violent = texts.some((t) => t.toLowerCase().includes('kill'))
  return {
    flagged: violent,
    categories: { violence: violent, harassment: false },
    category_scores: { violence: violent ? 0.91 : 0.01, harassment: 0.001 },
    category_applied_input_types: { violence: images ? ['text', 'image'] : ['text'], harassment: ['text'] },
  }
}

function moderations(call: RecordedCall, key: string): Response {
  if (call.headers.authorization !== `Bearer ${key}`) return openAiError(401, 'Incorrect API key provided')
  const { input, model = 'omni-moderation-latest' } = call.json ?? {}
  if (input === undefined) return openAiError(400, "Missing required parameter: 'input'.", 'input')
  let results
  if (typeof input === 'string') results = [result([input], 0)]
  else if (input.every((i: unknown) => typeof i === 'string')) results = input.map((t: string) => result([t], 0))
  else {
    if (!String(model).startsWith('omni')) return openAiError(400, 'This model does not support image inputs.', 'input')
    const texts = input.filter((p: { type: string }) => p.type === 'text').map((p: { text: string }) => p.text)
    results = [result(texts, input.length - texts.length)]
  }
  return Response.json({ id: 'modr-1', model: DATED[model] ?? model, results })
}

addOperationRoute('POST /v1/moderations', moderations)
