import type { ErrorView } from './describe-error'

export interface Envelope<T> {
  success: boolean
  message: string
  data: T
}

/** Never a promise: the repositories are async, and an envelope around one would answer `{}` (await it first). */
type NotPromise<T> = T extends PromiseLike<unknown> ? never : T

export function ok<T>(data: NotPromise<T>, message = ''): Envelope<T> {
  return { success: true, message, data: data as T }
}

/**
 * Every refusal carries its stable code (and the field it is about) in `data`, so a console words it in its reader's
 * language; `message` stays the English explanation for scripts and logs.
 */
export function renderEnvelopeError(view: ErrorView): Response {
  const data = { code: view.code, ...(view.param ? { param: view.param } : {}), ...view.data }
  return Response.json({ success: false, message: view.message, data } satisfies Envelope<Record<string, unknown>>, {
    status: view.status,
    headers: view.headers,
  })
}
