/** OpenAI's error shape is every other relay route's: /v1 (Responses and the operations too) and the console's /pg. */
export function errorsOn(path: string): boolean {
  return path.startsWith('/v1/') || path.startsWith('/pg/')
}
