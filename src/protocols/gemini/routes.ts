/** A Gemini client: it sends its key as `x-goog-api-key` or `?key=` (the @google/genai SDK lists models on /v1/models). */
export function isGeminiCaller(request: Request): boolean {
  return request.headers.has('x-goog-api-key') || new URL(request.url).searchParams.has('key')
}

/** Paths whose errors take Gemini's shape: its ingress, and /v1/models for Gemini callers. */
export function errorsOn(path: string, request: Request): boolean {
  if (path.startsWith('/v1beta/') || path === '/v1beta') return true
  return path.startsWith('/v1/models') && (path.includes(':') || isGeminiCaller(request))
}
