/**
 * OpenAI's image endpoints on the operations fake, at OpenAI's paths (`/v1/images/…`), Azure's deployment paths
 * (`api-key` header, `api-version` required) and Groq-like `/openai/v1/…` roots. They refuse what OpenAI
 * refuses (a missing prompt, `response_format` for GPT image models, n > 1 for dall-e-3, an edit without an
 * image file) and answer in its shapes: `url` or `b64_json` items, GPT image models with `usage`.
 * Importing this file registers the routes.
 */
import { addOperationRoute, type RecordedCall } from './operations'

/** The base64 "image" a fake answer carries: which prompt and which index it is for. */
export const fakeImage = (prompt: string, index: number) => Buffer.from(`image ${index} of ${prompt}`).toString('base64')

const openAiError = (status: number, message: string, param: string | null = null) =>
  Response.json({ error: { message, type: 'invalid_request_error', param, code: null } }, { status })

/** The key as OpenAI (Bearer) or Azure (`api-key`, and an api-version) expects it. */
export function keyProblem(call: RecordedCall, key: string): Response | undefined {
  if (call.path.startsWith('/openai/deployments/')) {
    if (call.headers['api-key'] !== key) return Response.json({ error: { code: '401', message: 'Access denied due to invalid subscription key.' } }, { status: 401 })
    if (!new URL(`http://x${call.path}`).searchParams.get('api-version')) return Response.json({ error: { code: '404', message: 'Resource not found' } }, { status: 404 })
    return undefined
  }
  if (call.headers.authorization !== `Bearer ${key}`) return openAiError(401, 'Incorrect API key provided')
  return undefined
}

/** `{model, prompt, n, response_format}` of a JSON body or a form, the form's fields as text. */
function fieldsOf(call: RecordedCall): Record<string, string | undefined> {
  if (call.form) {
    const out: Record<string, string | undefined> = {}
    for (const [name, value] of call.form.entries()) if (typeof value === 'string') out[name] = value
    return out
  }
  return Object.fromEntries(Object.entries(call.json ?? {}).map(([k, v]) => [k, v === undefined ? undefined : String(v)]))
}

function answerImages(call: RecordedCall, key: string, edit: boolean): Response {
  const refused = keyProblem(call, key)
  if (refused) return refused
  const f = fieldsOf(call)
  // Azure takes the model from the deployment in the path
  const model = call.path.startsWith('/openai/deployments/') ? decodeURIComponent(call.path.split('/')[3]!) : (f.model ?? 'dall-e-2')
  const gptImage = model.startsWith('gpt-image')
  if (!f.prompt) return openAiError(400, "Missing required parameter: 'prompt'.", 'prompt')
  if (gptImage && f.response_format !== undefined) return openAiError(400, "Unknown parameter: 'response_format'.", 'response_format')
  const n = Number(f.n ?? 1)
  if (model.startsWith('dall-e-3') && n !== 1) return openAiError(400, 'You must provide n=1 for this model.', 'n')
  if (edit) {
    const images = [...call.form!.getAll('image'), ...call.form!.getAll('image[]')]
    if (images.length === 0 || images.some((i) => !(i instanceof File) || i.size === 0)) return openAiError(400, "Missing required parameter: 'image'.", 'image')
  }
  // `prompt` "[fewer]" makes the upstream answer one image less than asked (content filtered), "[none]" none at all
  const made = f.prompt.includes('[none]') ? 0 : f.prompt.includes('[fewer]') ? n - 1 : n
  const data = Array.from({ length: made }, (_, i) =>
    f.response_format === 'url' ? { url: `https://images.example/${i}.png`, revised_prompt: f.prompt } : { b64_json: fakeImage(f.prompt!, i), ...(model.startsWith('dall-e-3') ? { revised_prompt: f.prompt } : {}) },
  )
  const usage = gptImage ? { usage: { input_tokens: 12, input_tokens_details: { text_tokens: 12, image_tokens: 0 }, output_tokens: 4160 * made, total_tokens: 12 + 4160 * made } } : {}
  const extra = gptImage ? { background: 'opaque', output_format: f.output_format ?? 'png', quality: 'high', size: f.size && f.size !== 'auto' ? f.size : '1024x1024' } : {}
  if (f.stream === 'true') return imageEvents(edit ? 'image_edit' : 'image_generation', f.prompt, made, Number(f.partial_images ?? 0), extra)
  return Response.json({ created: 1_750_000_000, data, ...extra, ...usage })
}

/** Streams cancelled by the gateway (its client gone) while the fake still had events to send. */
export const imageStreams = { cancelled: 0 }

/** A partial image's fake bytes: which image and which preview. */
export const fakePartial = (prompt: string, image: number, partial: number) => Buffer.from(`partial ${partial} of image ${image} of ${prompt}`).toString('base64')

/**
 * GPT image models' stream (`stream: true`): per image, `partial_images` `{prefix}.partial_image` events then one
 * `{prefix}.completed` with its token usage, each named in `event:`. A prompt with "[error]" gets an error event
 * first; "[break]" breaks off after the first image's previews; "[hang]" stays open after them.
 */
function imageEvents(prefix: string, prompt: string, images: number, partials: number, extra: Record<string, unknown>): Response {
  const frame = (type: string, data: Record<string, unknown>) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`
  const events: string[] = []
  if (prompt.includes('[error]')) events.push(`event: error\ndata: ${JSON.stringify({ error: { message: 'the image model is overloaded', type: 'server_error' } })}\n\n`)
  else
    for (let image = 0; image < images; image++) {
      for (let p = 0; p < partials; p++) events.push(frame(`${prefix}.partial_image`, { b64_json: fakePartial(prompt, image, p), created_at: 1_750_000_000, partial_image_index: p, ...extra }))
      if ((prompt.includes('[break]') || prompt.includes('[hang]')) && image === 0) break
      const usage = { input_tokens: 12, input_tokens_details: { text_tokens: 12, image_tokens: 0 }, output_tokens: 4160 + 100 * partials, total_tokens: 12 + 4160 + 100 * partials }
      events.push(frame(`${prefix}.completed`, { b64_json: fakeImage(prompt, image), created_at: 1_750_000_000, ...extra, usage }))
    }
  const encoder = new TextEncoder()
  let sent = false
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (!sent) {
        sent = true
        for (const event of events) controller.enqueue(encoder.encode(event))
        if (!prompt.includes('[break]') && !prompt.includes('[hang]')) controller.close()
        return
      }
      // the events sent out first, then the connection dropped (or held open)
      if (prompt.includes('[break]')) return new Promise<void>((resolve) => setTimeout(resolve, 50)).then(() => controller.error(new Error('connection reset')))
      return new Promise<void>(() => {})
    },
    cancel() {
      imageStreams.cancelled++
    },
  })
  return new Response(body, { headers: { 'content-type': 'text/event-stream' } })
}

/** OpenAI's `/v1/images/variations`: dall-e-2, one image file, no prompt; `url` or `b64_json` items. */
function answerVariations(call: RecordedCall, key: string): Response {
  const refused = keyProblem(call, key)
  if (refused) return refused
  const f = fieldsOf(call)
  if ((f.model ?? 'dall-e-2') !== 'dall-e-2') return openAiError(400, 'Invalid model. The model argument should be left blank.', 'model')
  const image = call.form?.get('image')
  if (!(image instanceof File) || image.size === 0) return openAiError(400, "Missing required parameter: 'image'.", 'image')
  const data = Array.from({ length: Number(f.n ?? 1) }, (_, i) => (f.response_format === 'b64_json' ? { b64_json: fakeImage(`variation of ${image.name}`, i) } : { url: `https://images.example/variation-${i}.png` }))
  return Response.json({ created: 1_750_000_000, data })
}
addOperationRoute('POST /v1/images/variations', answerVariations)

for (const root of ['/v1', '/openai/v1', '/openai/deployments/*']) {
  addOperationRoute(`POST ${root}/images/generations`, (call, key) => answerImages(call, key, false))
  addOperationRoute(`POST ${root}/images/edits`, (call, key) => answerImages(call, key, true))
}
