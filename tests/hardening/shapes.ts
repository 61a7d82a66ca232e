export type Shape = 'envelope' | 'anthropic' | 'openai' | 'gemini' | 'midjourney' | 'suno'

/**
 * The error shape docs/api.md promises for a path (and, on `/v1/models*`, the caller's headers): the envelope
 * on /api, Anthropic on /v1/messages*, Gemini on /v1beta and on `/v1/models/{model}:…`, OpenAI on other /v1
 * and on /pg; midjourney-proxy's on `/mj/…` and `/{mode}/mj/…`, new-api's Suno shape on `/suno/…`. Everything
 * else (the console's pages, unknown paths) gets the envelope.
 */
export function shapeOf(path: string, headers: Record<string, string> = {}): Shape {
  const has = (name: string) => Object.keys(headers).some((h) => h.toLowerCase() === name)
  const at = path.indexOf('?')
  const p = at === -1 ? path : path.slice(0, at)
  const query = new URLSearchParams(at === -1 ? '' : path.slice(at + 1))
  if (p.startsWith('/v1beta/') || p === '/v1beta') return 'gemini'
  if (p.startsWith('/v1/models') && (p.includes(':') || has('x-goog-api-key') || query.has('key'))) return 'gemini'
  if (p.startsWith('/v1/messages') || (p.startsWith('/v1/models') && has('anthropic-version'))) return 'anthropic'
  if (p.startsWith('/v1/') || p.startsWith('/pg/')) return 'openai'
  if (/^\/(?!api\/)([^/]+\/)?mj\//.test(p)) return 'midjourney'
  if (p.startsWith('/suno/')) return 'suno'
  return 'envelope'
}

/** Whether `body` is an error in `shape` (returns a reason when not), without bun:test's expect (the fuzz calls it in a loop). */
export function shapeProblem(shape: Shape, body: any): string | undefined {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return 'not a JSON object'
  const str = (v: unknown) => typeof v === 'string' && v.length > 0
  switch (shape) {
    case 'envelope':
      return body.success === false && str(body.message) && 'data' in body ? undefined : 'not {success:false, message, data}'
    case 'anthropic':
      return body.type === 'error' && str(body.error?.type) && str(body.error?.message) ? undefined : 'not {type:"error", error:{type, message}}'
    case 'openai':
      return str(body.error?.message) && str(body.error?.type) ? undefined : 'not {error:{message, type, …}}'
    case 'gemini':
      return typeof body.error?.code === 'number' && str(body.error?.message) && str(body.error?.status) ? undefined : 'not {error:{code, message, status}}'
    case 'midjourney':
      return typeof body.code === 'number' && str(body.description) && str(body.type) ? undefined : 'not {code, description, type, result}'
    case 'suno':
      return str(body.code) && str(body.message) && 'data' in body ? undefined : 'not {code, message, data}'
  }
}

/** Asserts the shape and returns the error's message. */
export function expectErrorShape(shape: Shape, body: any): string {
  const problem = shapeProblem(shape, body)
  if (problem) throw new Error(`${shape}: ${problem}: ${JSON.stringify(body).slice(0, 300)}`)
  return shape === 'envelope' || shape === 'suno' ? body.message : shape === 'midjourney' ? body.description : body.error.message
}
