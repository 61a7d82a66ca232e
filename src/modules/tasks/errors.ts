import type { ErrorView } from '../../plugins/describe-error'
import type { ErrorRouter } from '../../plugins/error-routes'

const MJ_PATH = /^\/([^/]+\/)?mj\//
const SUNO_PATH = /^\/suno\//

/**
 * Errors on the task routes in their clients' shapes: midjourney-proxy's `{code, description, result}` (code 4: an
 * error; `type` the stable code), and new-api's Suno `{code, message, data}` (code: the stable code).
 */
export function registerTaskErrors(router: ErrorRouter): void {
  router.register((path) => MJ_PATH.test(path), (view: ErrorView, requestId) =>
    Response.json({ code: 4, description: view.message, type: view.code, result: null, request_id: requestId }, { status: view.status, headers: view.headers }),
  )
  router.register((path) => SUNO_PATH.test(path), (view: ErrorView, requestId) =>
    Response.json({ code: view.code, message: view.message, data: null, request_id: requestId }, { status: view.status, headers: view.headers }),
  )
}
