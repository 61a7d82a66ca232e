/** Paths whose errors take Anthropic's shape: Messages (and count_tokens), and the model list for an Anthropic caller. */
export function errorsOn(path: string, request: Request): boolean {
  return path.startsWith('/v1/messages') || (path.startsWith('/v1/models') && request.headers.has('anthropic-version'))
}
