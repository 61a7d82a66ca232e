/** The message of an upstream error body in any of the four protocols (all use `error.message`), else the text. */
export function upstreamErrorMessage(status: number, text: string): string {
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown }
    if (typeof body.error === 'string' && body.error) return body.error
    if (body.error && typeof body.error === 'object' && typeof body.error.message === 'string') return body.error.message
    if (typeof body.message === 'string' && body.message) return body.message
  } catch {}
  const trimmed = text.trim().slice(0, 300)
  return trimmed ? `upstream status ${status}: ${trimmed}` : `upstream status ${status}`
}
