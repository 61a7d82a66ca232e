import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../deps'
import { idCarriedByResponse } from '../../plugins/request-context'
import type { RelayHooks } from '../../relay/types'
import { videoRequestOf } from '../../tasks/video/request'
import { submitVideo } from '../../tasks/video/submit'
import { apiKeyAuth } from '../relay/api-key-auth'
import { assertJsonBody, parseRawJson, type RawBodyContext } from '../relay/raw-body'
import { relayCallOf } from '../relay/relay-input'
import { taskDtoView } from './video-dto'
import { ownVideo, videoDeps, type VideoCtx } from './video-routes'

const Image = t.String({ maxLength: 16 * 1024 * 1024 })
/** Kling's own body (its documented fields, others passed on): `model_name` (or `model`), `prompt`, `image`, `image_tail` … */
const KlingBody = t.Object(
  {
    model_name: t.Optional(t.String({ maxLength: 128 })),
    model: t.Optional(t.String({ maxLength: 128 })),
    prompt: t.Optional(t.String({ maxLength: 2500 })),
    negative_prompt: t.Optional(t.String({ maxLength: 2500 })),
    image: t.Optional(Image),
    image_tail: t.Optional(Image),
    duration: t.Optional(t.Union([t.String({ maxLength: 4 }), t.Integer({ minimum: 1, maximum: 600 })])),
  },
  { additionalProperties: true },
)
const Id = t.Object({ id: t.String({ minLength: 1, maxLength: 128 }) })

/**
 * Kling's own routes as new-api serves them (`/kling/v1/videos/text2video`, `/image2video`, and their fetch by id),
 * for clients written against Kling's API: the body is Kling's, its fields passed on to the Kling channel; the
 * answers are new-api's (the video object at submit, `{code, data}` at fetch). Errors in new-api's task shape.
 */
export function klingRoutes(deps: AppDeps, hooks: RelayHooks) {
  const app = new Elysia({ name: 'tasks-kling' })
    .use(apiKeyAuth(deps, 'kling', () => []))
    .onTransform(({ request, rawBody }: RawBodyContext & { request: Request }) => {
      if (request.method === 'POST') assertJsonBody(rawBody)
    })
  for (const kind of ['text2video', 'image2video'] as const) {
    app.post(
      `/kling/v1/videos/${kind}`,
      ({ request, caller, clientIp, arrival, set, body }: VideoCtx & { body: Record<string, unknown> }) => {
        idCarriedByResponse(set)
        const { model_name, model, prompt, image, image_tail, duration, ...metadata } = body
        const images = [image, image_tail].filter((value): value is string => typeof value === 'string' && value !== '')
        const video = videoRequestOf({ model: model_name ?? model ?? 'kling-v1', prompt, duration, images, metadata }, deps.options)
        return submitVideo(videoDeps(deps), relayCallOf(`/kling/v1/videos/${kind}`, { request, caller, clientIp, arrival }), video, hooks)
      },
      { parse: parseRawJson, body: KlingBody },
    )
    app.get(`/kling/v1/videos/${kind}/:id`, async (ctx: VideoCtx) => ({ code: 'success', message: '', data: taskDtoView(await ownVideo(deps, ctx.caller.user.id, ctx.params.id!)) }), { params: Id })
  }
  return app
}
