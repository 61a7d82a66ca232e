import type { AppDeps } from '../../deps'
import type { ErrorView } from '../../plugins/describe-error'
import type { ErrorRouter, FailedRequest } from '../../plugins/error-routes'
import { refusalLogger } from '../relay/refusals'

// `/mj/…`, or under a mode segment (`/mj-fast/mj/…`); never the back office's `/api/mj/…`
const MJ_PATH = /^\/(?!api\/)([^/]+\/)?mj\//
// Suno, and the video vendors' own routes (new-api answers every task error as its TaskError `{code, message, data}`)
const SUNO_PATH = /^\/(suno|kling|jimeng)(\/|$)/

/**
 * Errors on the task routes in their clients' shapes: midjourney-proxy's `{code, description, result}` (code 4: an
 * error; `type` the stable code), and new-api's Suno `{code, message, data}` (code: the stable code). A submit
 * refused before its reservation (no price, no quota, too many tasks) gets its error row, as other relay routes do.
 */
export function registerTaskErrors(router: ErrorRouter, deps: Pick<AppDeps, 'metering'>): void {
  const logRefusal = refusalLogger(deps, taskModel)
  router.register(
    (path) => MJ_PATH.test(path),
    (view: ErrorView, requestId) => Response.json({ code: 4, description: view.message, type: view.code, result: null, request_id: requestId }, { status: view.status, headers: view.headers }),
    logRefusal,
  )
  router.register(
    (path) => SUNO_PATH.test(path),
    (view: ErrorView, requestId) => Response.json({ code: view.code, message: view.message, data: null, request_id: requestId }, { status: view.status, headers: view.headers }),
    logRefusal,
  )
}

/** The priced name a submit's path names (`/mj/submit/imagine` → mj_imagine, `/suno/submit/music` → suno_music). */
function taskModel(failed: FailedRequest): { model: string; stream: boolean } {
  const submit = /\/(mj|suno)\/submit\/([a-z-]+)$/.exec(failed.path)
  if (!submit) return { model: '', stream: false }
  const [, platform, route] = submit
  if (platform === 'suno') return { model: `suno_${route}`, stream: false }
  return { model: route === 'upload-discord-images' ? 'mj_upload' : `mj_${route}`, stream: false }
}
