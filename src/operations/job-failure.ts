import type { OperationDialect, OperationRequest } from './types'
import { isRetryableStatus, UpstreamFailure } from '../relay/failure'
import { maskSecrets } from '../relay/mask'

/** An operation's upstream error answer → a failure naming the upstream's own message (keys masked); `status` as the channel's mapping reads it. */
export async function operationFailure<R extends OperationRequest>(dialect: OperationDialect<R>, response: Response, key: string, status = response.status): Promise<UpstreamFailure> {
  const text = await response.text().catch(() => '')
  let body: unknown = text
  try {
    body = JSON.parse(text)
  } catch {}
  const message = dialect.errorMessage?.(response.status, body) ?? commonErrorMessage(body) ?? (text.slice(0, 500) || response.statusText)
  const mapped = status === response.status ? '' : ` (read as ${status})`
  return new UpstreamFailure(status, `upstream ${response.status}${mapped}: ${maskSecrets(message, key)}`, isRetryableStatus(status))
}

/** `{error: {message}}` (OpenAI), `{error: "…"}`, `{message}` (Cohere, Bedrock), `{detail}` (Jina, FastAPI servers). */
export function commonErrorMessage(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined
  const b = body as { error?: unknown; message?: unknown; detail?: unknown }
  if (typeof b.error === 'object' && b.error !== null && typeof (b.error as { message?: unknown }).message === 'string') return (b.error as { message: string }).message
  if (typeof b.error === 'string') return b.error
  if (typeof b.message === 'string') return b.message
  if (typeof b.detail === 'string') return b.detail
  if (b.detail !== undefined) return JSON.stringify(b.detail).slice(0, 500)
  return undefined
}

/** The failure with the channel's key (and anything key-like) masked in its message. */
export function maskedFailure(failure: UpstreamFailure, key: string): UpstreamFailure {
  const message = maskSecrets(failure.message, key)
  return message === failure.message ? failure : new UpstreamFailure(failure.status, message, failure.retryable)
}
