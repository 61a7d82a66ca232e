/**
 * A request's path read from its URL. Elysia's `path` is taken from the 12th character on (`indexOf('/', 11)`),
 * which assumes a host of at least four characters: for `Host: llm` (a compose service name) or `Host: a` the URL
 * is `http://llm/v1beta/models/…` and Elysia's `path` on a dynamic route or an error is `/models/…`, a segment
 * late, while the route that runs is still the right one. Whatever decides by path (error shapes, the key's
 * sources, the /api depth check, the origin guard) reads it here.
 */
export function pathStart(url: string): number {
  // "http://h/…" or "https://h/…"; a URL without a scheme (Bun's, for a request without a valid Host) is all path
  if (url.charCodeAt(0) === 47) return 0
  const at = url.indexOf('/', url.charCodeAt(4) === 115 ? 8 : 7)
  return at < 0 ? url.length : at
}

/** The path without its query: `/v1beta/models/gemini:generateContent`. */
export function pathOf(url: string): string {
  const start = pathStart(url)
  const query = url.indexOf('?', start)
  return query < 0 ? url.slice(start) : url.slice(start, query)
}
