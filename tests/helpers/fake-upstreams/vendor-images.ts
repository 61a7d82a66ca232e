/**
 * Image APIs of other vendors on the operations fake: Google's Imagen (`/v1beta/models/{model}:predict`,
 * `x-goog-api-key`, `instances`/`parameters` in, `predictions[].bytesBase64Encoded` out, a filtered sample as
 * `raiFilteredReason` only, all filtered as `{}`) and Doubao Seedream on Ark (`/api/v3/images/generations`,
 * OpenAI's shape with `usage.generated_images`; a sequence makes up to `max_images`). Importing registers them.
 */
import { fakeImage } from './images'
import { addOperationRoute, type RecordedCall } from './operations'

const googleError = (status: number, message: string, state: string) => Response.json({ error: { code: status, message, status: state } }, { status })

function imagen(call: RecordedCall, key: string): Response {
  if (call.headers['x-goog-api-key'] !== key) return googleError(400, 'API key not valid. Please pass a valid API key.', 'INVALID_ARGUMENT')
  const prompt = call.json?.instances?.[0]?.prompt
  if (typeof prompt !== 'string' || !prompt) return googleError(400, 'Prompt is required.', 'INVALID_ARGUMENT')
  const count = call.json?.parameters?.sampleCount ?? 4
  if (prompt.includes('[none]')) return Response.json({})
  const predictions = Array.from({ length: count }, (_, i) =>
    prompt.includes('[filtered]') && i === 0 ? { raiFilteredReason: 'filtered for safety' } : { mimeType: 'image/png', bytesBase64Encoded: fakeImage(prompt, i) },
  )
  return Response.json({ predictions })
}
addOperationRoute('POST /v1beta/models/*:predict', imagen)

function seedream(call: RecordedCall, key: string): Response {
  if (call.headers.authorization !== `Bearer ${key}`) return Response.json({ error: { code: 'AuthenticationError', message: 'the API key is invalid', type: 'Unauthorized' } }, { status: 401 })
  const body = call.json ?? {}
  const made = body.sequential_image_generation === 'auto' ? Math.min(body.sequential_image_generation_options?.max_images ?? 15, 3) : 1
  const data = Array.from({ length: made }, (_, i) => (body.response_format === 'b64_json' ? { b64_json: fakeImage(body.prompt, i), size: '2048x2048' } : { url: `https://ark.example/${i}.jpeg`, size: '2048x2048' }))
  if (body.stream === true) return seedreamEvents(body.model, data)
  return Response.json({ model: body.model, created: 1_750_000_000, data, usage: { generated_images: made, output_tokens: 16384 * made, total_tokens: 16384 * made } })
}
addOperationRoute('POST /api/v3/images/generations', seedream)

/**
 * Ark's streamed sequence (`stream: true`): one `image_generation.partial_succeeded` per image (the second of three
 * or more `partial_failed`, as a filtered image is), then `image_generation.completed` with `usage.generated_images`
 * and `data: [DONE]`; data lines only, each naming its type.
 */
function seedreamEvents(model: string, images: Record<string, unknown>[]): Response {
  const base = { model, created: 1_750_000_000 }
  const events = images.map((image, i) =>
    images.length > 2 && i === 1
      ? { type: 'image_generation.partial_failed', ...base, image_index: i, error: { code: 'OutputImageSensitiveContentDetected', message: 'The request failed because the output image may contain sensitive information.' } }
      : { type: 'image_generation.partial_succeeded', ...base, image_index: i, ...image },
  )
  const made = events.filter((e) => e.type === 'image_generation.partial_succeeded').length
  events.push({ type: 'image_generation.completed', ...base, usage: { generated_images: made, output_tokens: 16384 * made, total_tokens: 16384 * made } } as never)
  const text = events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('') + 'data: [DONE]\n\n'
  return new Response(text, { headers: { 'content-type': 'text/event-stream' } })
}

/** DashScope's asynchronous text-to-image: a task per submission, ended at its first poll (a `[slow]` prompt's at its second). */
const dashscopeTasks = new Map<string, { polls: number; prompt: string; n: number }>()
const dashscopeError = (status: number, code: string, message: string) => Response.json({ code, message, request_id: 'req-1' }, { status })

function dashscopeSubmit(call: RecordedCall, key: string): Response {
  if (call.headers.authorization !== `Bearer ${key}`) return dashscopeError(401, 'InvalidApiKey', 'Invalid API-key provided.')
  if (call.headers['x-dashscope-async'] !== 'enable') return dashscopeError(403, 'AccessDenied', 'current user api does not support synchronous calls')
  const prompt = call.json?.input?.prompt
  if (typeof prompt !== 'string' || !prompt) return dashscopeError(400, 'InvalidParameter', 'Field required: input.prompt')
  const id = `task-${dashscopeTasks.size + 1}`
  dashscopeTasks.set(id, { polls: 0, prompt, n: call.json?.parameters?.n ?? 4 })
  return Response.json({ output: { task_status: 'PENDING', task_id: id }, request_id: 'req-1' })
}

function dashscopeTask(call: RecordedCall, key: string): Response {
  if (call.headers.authorization !== `Bearer ${key}`) return dashscopeError(401, 'InvalidApiKey', 'Invalid API-key provided.')
  const id = call.path.split('/').at(-1)!
  const task = dashscopeTasks.get(id)
  if (!task) return Response.json({ request_id: 'req-2', output: { task_id: id, task_status: 'UNKNOWN' } })
  task.polls++
  if (task.polls === 1 && task.prompt.includes('[slow]')) return Response.json({ request_id: 'req-2', output: { task_id: id, task_status: 'RUNNING' } })
  if (task.prompt.includes('[fail]')) return Response.json({ request_id: 'req-2', output: { task_id: id, task_status: 'FAILED', code: 'DataInspectionFailed', message: 'Input data may contain inappropriate content.' } })
  const results = Array.from({ length: task.n }, (_, i) =>
    task.prompt.includes('[partial]') && i === 0 ? { code: 'DataInspectionFailed', message: 'Output data may contain inappropriate content.' } : { orig_prompt: task.prompt, actual_prompt: `${task.prompt}, detailed`, url: `https://dashscope-result.example/${id}/${i}.png` },
  )
  const made = results.filter((r) => 'url' in r).length
  return Response.json({ request_id: 'req-2', output: { task_id: id, task_status: 'SUCCEEDED', results, task_metrics: { TOTAL: task.n, SUCCEEDED: made, FAILED: task.n - made } }, usage: { image_count: made } })
}
addOperationRoute('POST /api/v1/services/aigc/text2image/image-synthesis', dashscopeSubmit)
addOperationRoute('GET /api/v1/tasks/*', dashscopeTask)
