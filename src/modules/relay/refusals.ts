import type { AppDeps } from '../../deps'
import type { ErrorView } from '../../plugins/describe-error'
import type { FailedRequest } from '../../plugins/error-routes'
import { wasSettled } from '../../relay/engine'

/**
 * The relay routes' error observer: a generation request that failed after its key was verified and that
 * settle never saw (unknown, forbidden or unpriced model, rate limit, insufficient quota, a bad body) gets
 * its error row here; requests past the reservation are logged by settle, once. Requests without a valid
 * key cannot be attributed to anyone and are not logged. It runs where the error is rendered (an after-
 * response hook would cost every successful request a scheduled callback); the row is written with the
 * next log batch.
 */
export function refusalLogger(deps: Pick<AppDeps, 'metering'>, wanted: (failed: FailedRequest) => { model: string; stream: boolean }) {
  return (failed: FailedRequest, view: ErrorView): void => {
    if (!failed.caller || failed.request.method !== 'POST' || failed.path.endsWith('/count_tokens')) return
    if (wasSettled(failed.error)) return
    const { model, stream } = wanted(failed)
    deps.metering.refused({
      user: failed.caller.user,
      token: failed.caller.token,
      model,
      stream,
      status: view.status,
      code: view.code,
      message: view.status >= 500 ? 'internal error' : view.message,
      requestId: failed.arrival?.id ?? '',
      clientIp: failed.clientIp ?? '',
    })
  }
}

/** The model and stream flag the body of an OpenAI or Anthropic request asks for, whatever else is wrong with it. */
export function bodyModel(failed: FailedRequest): { model: string; stream: boolean } {
  const body = failed.body as { model?: unknown; stream?: unknown } | undefined
  return { model: typeof body?.model === 'string' ? body.model : '', stream: body?.stream === true }
}
