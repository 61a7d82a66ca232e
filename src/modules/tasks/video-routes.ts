import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../deps'
import type { TaskRow } from '../../db/repos/tasks'
import { NotFoundError } from '../../errors'
import { idCarriedByResponse, type ArrivedContext } from '../../plugins/request-context'
import type { VerifiedToken } from '../../relay/auth'
import type { RelayHooks } from '../../relay/types'
import { videoContent } from '../../tasks/video/content'
import { videoRequestOf } from '../../tasks/video/request'
import { submitVideo } from '../../tasks/video/submit'
import { videoVendorOf } from '../../tasks/video/vendors'
import { videoView } from '../../tasks/video/view'
import { apiKeyAuth } from '../relay/api-key-auth'
import { assertMultipartBody, startMultipart, type MultipartContext } from '../relay/multipart-body'
import { assertJsonBody, parseRawJson, readWholeBody, type RawBodyContext } from '../relay/raw-body'
import { relayCallOf } from '../relay/relay-input'
import { taskDtoView } from './video-dto'

export interface VideoCtx extends ArrivedContext {
  request: Request
  caller: VerifiedToken
  clientIp: string
  set: { headers: Record<string, unknown> }
  params: Record<string, string>
}

const Id = t.Object({ id: t.String({ minLength: 1, maxLength: 128 }) })
const RemixBody = t.Object({ prompt: t.String({ minLength: 1, maxLength: 32_000 }) }, { additionalProperties: true })
const GenerationBody = t.Object({ prompt: t.String({ maxLength: 32_000 }), model: t.Optional(t.String({ maxLength: 128 })) }, { additionalProperties: true })

const isMultipart = (request: Request) => (request.headers.get('content-type') ?? '').toLowerCase().startsWith('multipart/form-data')

/**
 * A create's body, multipart (what the SDK sends with a reference image) or JSON. Property writes only, never the
 * context handed on whole: Elysia would otherwise compile the route to parse cookies and copy every header.
 */
function parseVideoBody(parseContext: RawBodyContext & MultipartContext): Promise<unknown> {
  if (!isMultipart(parseContext.request)) return readWholeBody(parseContext.request).then((entry) => (parseContext.rawBody = entry).view)
  const started = startMultipart(parseContext.request)
  parseContext.multipart = started.entry
  return started.form
}

/** The narrow pieces a video submit uses. */
export function videoDeps(deps: AppDeps) {
  return { routing: deps.routing, options: deps.options, affinity: deps.affinity, outbound: deps.outbound, ops: deps.ops, tasks: deps.repos.tasks, clock: deps.clock }
}

/** The caller's video task by the id they were given, or a 404. */
export async function ownVideo(deps: AppDeps, userId: number, taskId: string): Promise<TaskRow> {
  const [row] = (await deps.repos.tasks.list({ userId, taskId }, 0, 1)).items
  if (!row || !videoVendorOf(row.platform)) throw new NotFoundError(`video ${taskId} not found`, 'task_not_found')
  return row
}

/**
 * OpenAI's Videos API (`/v1/videos`: create, retrieve, content, remix) and new-api's `/v1/video/generations`, for
 * every video vendor a channel serves (src/tasks/video/): submits run as tasks of the engine; retrieves answer from
 * the gateway's records, kept current by the poller; the content streams from the vendor through the guard.
 */
export function videoRoutes(deps: AppDeps, hooks: RelayHooks) {
  const submit = (ctx: VideoCtx, body: unknown, path: string, origin?: TaskRow) => {
    idCarriedByResponse(ctx.set)
    const request = videoRequestOf(body, deps.options, origin?.model)
    return submitVideo(videoDeps(deps), relayCallOf(path, ctx), { ...request, origin }, hooks)
  }
  return new Elysia({ name: 'tasks-video' })
    .use(apiKeyAuth(deps, 'videos', () => []))
    .onTransform(({ request, rawBody, multipart }: RawBodyContext & MultipartContext & { request: Request }) => {
      if (request.method !== 'POST') return
      if (isMultipart(request)) assertMultipartBody(multipart)
      else assertJsonBody(rawBody)
    })
    .post('/v1/videos', ({ request, caller, clientIp, arrival, set, params, body }: VideoCtx & { body: unknown }) => submit({ request, caller, clientIp, arrival, set, params }, body, '/v1/videos'), {
      parse: parseVideoBody,
    })
    .get('/v1/videos/:id', async (ctx: VideoCtx) => videoView(await ownVideo(deps, ctx.caller.user.id, ctx.params.id!)), { params: Id })
    .get(
      '/v1/videos/:id/content',
      async (ctx: VideoCtx & { query: { variant?: string } }) =>
        videoContent({ ...deps, channels: deps.routing.channels }, await ownVideo(deps, ctx.caller.user.id, ctx.params.id!), ctx.request, ctx.query.variant),
      { params: Id, query: t.Object({ variant: t.Optional(t.Union([t.Literal('video'), t.Literal('thumbnail'), t.Literal('spritesheet')])) }) },
    )
    .post(
      '/v1/videos/:id/remix',
      async ({ request, caller, clientIp, arrival, set, params, body }: VideoCtx & { body: { prompt: string } }) => {
        const origin = await ownVideo(deps, caller.user.id, params.id!)
        return submit({ request, caller, clientIp, arrival, set, params }, { prompt: body.prompt, model: origin.model }, '/v1/videos/remix', origin)
      },
      { parse: parseRawJson, params: Id, body: RemixBody },
    )
    .post(
      '/v1/video/generations',
      ({ request, caller, clientIp, arrival, set, params, body }: VideoCtx & { body: unknown }) => submit({ request, caller, clientIp, arrival, set, params }, body, '/v1/video/generations'),
      { parse: parseRawJson, body: GenerationBody },
    )
    .get('/v1/video/generations/:id', async (ctx: VideoCtx) => ({ code: 'success', message: '', data: taskDtoView(await ownVideo(deps, ctx.caller.user.id, ctx.params.id!)) }), { params: Id })
}
