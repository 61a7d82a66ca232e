import type { AppDeps } from '../../deps'
import { describeError } from '../../plugins/describe-error'
import { requestIdOf } from '../../plugins/request-context'
import type { VerifiedToken } from '../../relay/auth'
import { wasSettled } from '../../relay/pipeline'

/** What the relay routes' after-response hook sees of a request. */
export interface RelayAfterContext {
  request: Request
  path: string
  /** set once the key was verified; absent for an anonymous or bad key */
  caller?: VerifiedToken
  clientIp?: string
  /** set by Elysia on the context when the request failed (not in its types for this hook) */
  error?: unknown
  code?: string | number
  body?: unknown
  params?: Record<string, string>
}

/**
 * The after-response hook of the relay routes: a generation request that failed after its key was
 * verified and that settle never saw (unknown, forbidden or unpriced model, rate limit, insufficient quota,
 * a bad body) gets its error row here; requests past the reservation are logged by settle, once. Requests
 * without a valid key cannot be attributed to anyone and are not logged. Runs after the response is sent.
 * The hook's parameter is destructured on purpose: Elysia reads it to learn what the app's routes use, and a
 * hook handed the whole context makes every route parse cookies, query and headers.
 */
export function refusalLogger(deps: Pick<AppDeps, 'metering'>, wanted: (ctx: RelayAfterContext) => { model: string; stream: boolean }) {
  return ({ request, path, caller, clientIp, error, code, body, params }: RelayAfterContext): void =>
    logRefusedRequest(deps, { request, path, caller, clientIp, error, code, body, params }, wanted)
}

function logRefusedRequest(
  deps: Pick<AppDeps, 'metering'>,
  ctx: RelayAfterContext,
  wanted: (ctx: RelayAfterContext) => { model: string; stream: boolean },
): void {
  if (ctx.error === undefined || !ctx.caller || ctx.request.method !== 'POST' || ctx.path.endsWith('/count_tokens')) return
  if (wasSettled(ctx.error)) return
  const view = describeError(ctx.code ?? 'UNKNOWN', ctx.error, false)
  const { model, stream } = wanted(ctx)
  deps.metering.refused({
    user: ctx.caller.user,
    token: ctx.caller.token,
    model,
    stream,
    status: view.status,
    code: view.code,
    message: view.status >= 500 ? 'internal error' : view.message,
    requestId: requestIdOf(ctx.request) ?? '',
    clientIp: ctx.clientIp ?? '',
  })
}

/** The model and stream flag the body of an OpenAI or Anthropic request asks for, whatever else is wrong with it. */
export function bodyModel(ctx: RelayAfterContext): { model: string; stream: boolean } {
  const body = ctx.body as { model?: unknown; stream?: unknown } | undefined
  return { model: typeof body?.model === 'string' ? body.model : '', stream: body?.stream === true }
}
