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

export function renderEnvelopeError(view: ErrorView): Response {
  return Response.json({ success: false, message: view.message, data: view.data ?? null } satisfies Envelope<Record<string, unknown> | null>, {
    status: view.status,
    headers: view.headers,
  })
}
