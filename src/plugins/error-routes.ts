import type { VerifiedToken } from '../relay/types'
import { describeError, type ErrorView } from './describe-error'
import { renderEnvelopeError } from './envelope'
import type { Arrival } from './request-context'

/** What the app's error hook reads of a failed request: Elysia's context, with the relay derive's fields when it ran. */
export interface FailedRequest {
  request: Request
  path: string
  code: string | number
  error: unknown
  body?: unknown
  params?: Record<string, string>
  /** set by the relay derive once the key was verified; absent for an anonymous or bad key */
  caller?: VerifiedToken
  clientIp?: string
  /** from the request-context hook: when the request arrived, its id */
  arrival?: Arrival
}

export type ErrorRenderer = (view: ErrorView, requestId: string | undefined) => Response
/** Sees each error its route renders (the relay logs refusals here, so successful requests pay nothing for it). */
export type ErrorObserver = (failed: FailedRequest, view: ErrorView) => void

/**
 * Which wire shape an error takes is decided by path: the envelope for /api, each relay protocol's own
 * body for its routes. Relay modules register their renderers here; everything else gets the envelope.
 */
export function createErrorRouter() {
  const routes: { matches: (path: string, request: Request) => boolean; render: ErrorRenderer; observe?: ErrorObserver }[] = []
  return {
    register(matches: (path: string, request: Request) => boolean, render: ErrorRenderer, observe?: ErrorObserver) {
      routes.push({ matches, render, observe })
    },
    render(failed: FailedRequest, requestId: string | undefined): Response {
      const view = describeError(failed.code, failed.error)
      const route = routes.find((r) => r.matches(failed.path, failed.request))
      const response = route ? route.render(view, requestId) : renderEnvelopeError(view)
      if (requestId) response.headers.set('x-request-id', requestId)
      try {
        route?.observe?.(failed, view)
      } catch (error) {
        console.error('error observer failed:', error) // the client still gets its error answer
      }
      return response
    },
  }
}

export type ErrorRouter = ReturnType<typeof createErrorRouter>
