import { describeError, type ErrorView } from './describe-error'
import { renderEnvelopeError } from './envelope'

export type ErrorRenderer = (view: ErrorView, requestId: string | undefined) => Response

/**
 * Which wire shape an error takes is decided by path: the envelope for /api, each relay protocol's own
 * body for its routes. Relay modules register their renderers here; everything else gets the envelope.
 */
export function createErrorRouter() {
  const routes: { matches: (path: string, request: Request) => boolean; render: ErrorRenderer }[] = []
  return {
    register(matches: (path: string, request: Request) => boolean, render: ErrorRenderer) {
      routes.push({ matches, render })
    },
    render(request: Request, path: string, code: string | number, error: unknown, requestId: string | undefined): Response {
      const view = describeError(code, error)
      const route = routes.find((r) => r.matches(path, request))
      const response = route ? route.render(view, requestId) : renderEnvelopeError(view)
      if (requestId) response.headers.set('x-request-id', requestId)
      return response
    },
  }
}

export type ErrorRouter = ReturnType<typeof createErrorRouter>
