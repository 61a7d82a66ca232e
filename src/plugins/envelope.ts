import type { ErrorView } from './describe-error'

export interface Envelope<T> {
  success: boolean
  message: string
  data: T
}

export function ok<T>(data: T, message = ''): Envelope<T> {
  return { success: true, message, data }
}

export function renderEnvelopeError(view: ErrorView): Response {
  return Response.json({ success: false, message: view.message, data: null } satisfies Envelope<null>, {
    status: view.status,
    headers: view.headers,
  })
}
