import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../deps'
import { GatewayError, NotFoundError } from '../../errors'
import { idCarriedByResponse, type ArrivedContext } from '../../plugins/request-context'
import { MIDJOURNEY_KEY_SOURCES, type VerifiedToken } from '../../relay/auth'
import type { RelayHooks } from '../../relay/types'
import { actionOfCustomId, midjourneyPlatform, midjourneyView, mjModel } from '../../tasks/midjourney'
import { submitTask } from '../../tasks/submit'
import type { SubmitSpec } from '../../tasks/types'
import { apiKeyAuth } from '../relay/api-key-auth'
import { assertJsonBody, parseRawJson, type RawBodyContext } from '../relay/raw-body'
import { relayCallOf } from '../relay/relay-input'
import { imageSeed } from './image-seed'
import { forwardedImageUrl, taskImage } from './mj-image-route'

/** The speed modes new-api passes on as a path prefix (`/mj-fast/mj/submit/imagine`). */
const MODES = /^mj-(fast|turbo|relax)$/

interface Ctx extends ArrivedContext {
  request: Request
  caller: VerifiedToken
  clientIp: string
  set: { headers: Record<string, unknown> }
  params: Record<string, string>
}

const Id = t.String({ minLength: 1, maxLength: 64 })
const Prompt = t.String({ minLength: 1, maxLength: 8192 })
const Image = t.String({ minLength: 1, maxLength: 16 * 1024 * 1024 })
const Open = { additionalProperties: true } as const
const Bodies = {
  imagine: t.Object({ prompt: Prompt, base64Array: t.Optional(t.Array(Image, { maxItems: 5 })) }, Open),
  change: t.Object({ taskId: Id, action: t.Union([t.Literal('UPSCALE'), t.Literal('VARIATION'), t.Literal('REROLL')]), index: t.Optional(t.Integer({ minimum: 1, maximum: 4 })) }, Open),
  action: t.Object({ taskId: Id, customId: t.String({ minLength: 1, maxLength: 256 }) }, Open),
  blend: t.Object({ base64Array: t.Array(Image, { minItems: 2, maxItems: 5 }) }, Open),
  describe: t.Object({ base64: Image }, Open),
  shorten: t.Object({ prompt: Prompt }, Open),
  modal: t.Object({ taskId: Id, prompt: t.Optional(t.String({ maxLength: 8192 })), maskBase64: t.Optional(Image) }, Open),
  upload: t.Object({ base64Array: t.Array(Image, { minItems: 1, maxItems: 5 }) }, Open),
  ids: t.Object({ ids: t.Array(Id, { maxItems: 100 }) }, Open),
}

/**
 * Midjourney as midjourney-proxy serves it, under `/mj` and `/{mode}/mj` as new-api has them: submits run as tasks
 * of the relay engine (src/tasks/submit.ts), fetches answer from the gateway's own records (kept current by the
 * poller). The key comes as `mj-api-secret` (Midjourney clients) or a Bearer token.
 */
export function midjourneyRoutes(deps: AppDeps, hooks: RelayHooks) {
  const app = new Elysia({ name: 'tasks-midjourney' })
    .use(apiKeyAuth(deps, 'midjourney', () => MIDJOURNEY_KEY_SOURCES))
    .onTransform(({ request, rawBody }: RawBodyContext & { request: Request }) => {
      if (request.method === 'POST') assertJsonBody(rawBody)
    })
  for (const prefix of ['/mj', '/:mode/mj']) {
    // handlers take the fields they read: a context handed on whole makes Elysia parse cookies and copy headers
    const submit = (route: string, schema: (typeof Bodies)[keyof typeof Bodies], spec: (b: Record<string, unknown>, caller: VerifiedToken) => Promise<Omit<SubmitSpec, 'path'>> | Omit<SubmitSpec, 'path'>) =>
      app.post(
        `${prefix}/submit/${route}`,
        async ({ request, caller, clientIp, arrival, set, params, body }: Ctx & { body: Record<string, unknown> }) => {
          const mode = modeOf(params)
          idCarriedByResponse(set)
          const made = await spec(body, caller)
          return submitTask(taskDeps(deps), relayCallOf(`/mj/submit/${route}`, { request, caller, clientIp, arrival }), midjourneyPlatform, { ...made, path: `${mode ? `/${mode}` : ''}/mj/submit/${route}` }, hooks)
        },
        { parse: parseRawJson, body: schema },
      )
    const origin = async (caller: VerifiedToken, taskId: string) => {
      const [row] = await deps.repos.tasks.findOwned(caller.user.id, 'midjourney', [taskId])
      if (!row) throw new NotFoundError(`task ${taskId} not found`, 'task_not_found')
      return row
    }
    const plain = (action: string, b: Record<string, unknown>, prompt = '') => ({ action, model: mjModel(action), body: b, prompt, keepsTask: true })
    submit('imagine', Bodies.imagine, (b) => plain('IMAGINE', b, b.prompt as string))
    submit('shorten', Bodies.shorten, (b) => plain('SHORTEN', b, b.prompt as string))
    submit('blend', Bodies.blend, (b) => plain('BLEND', b))
    submit('describe', Bodies.describe, (b) => plain('DESCRIBE', b))
    submit('upload-discord-images', Bodies.upload, (b) => ({ ...plain('UPLOAD', b), keepsTask: false }))
    submit('change', Bodies.change, async (b, caller) => ({ ...plain(b.action as string, b), prompt: `${b.action as string} ${(b.index as number | undefined) ?? ''}`.trim(), origin: await origin(caller, b.taskId as string) }))
    submit('action', Bodies.action, async (b, caller) => {
      const action = actionOfCustomId(b.customId as string)
      if (!action) throw new GatewayError(400, 'invalid_custom_id', `customId "${b.customId as string}" is not a Midjourney button this gateway knows`, 'customId')
      return { ...plain(action, b), origin: await origin(caller, b.taskId as string) }
    })
    submit('modal', Bodies.modal, async (b, caller) => ({ ...plain('MODAL', b, (b.prompt as string | undefined) ?? ''), origin: await origin(caller, b.taskId as string) }))

    app.get(`${prefix}/task/:id/fetch`, async ({ request, caller, params }: Ctx) => {
      modeOf(params)
      return forwardedImageUrl(deps, request, midjourneyView(await origin(caller, params.id!)))
    })
    app.post(
      `${prefix}/task/list-by-condition`,
      async (ctx: Ctx & { body: { ids: string[] } }) => {
        modeOf(ctx.params)
        const rows = await deps.repos.tasks.findOwned(ctx.caller.user.id, 'midjourney', ctx.body.ids)
        return rows.map((row) => forwardedImageUrl(deps, ctx.request, midjourneyView(row)))
      },
      { parse: parseRawJson, body: Bodies.ids },
    )
    app.get(`${prefix}/image/:id`, (ctx: Ctx) => {
      modeOf(ctx.params)
      return taskImage(deps, ctx.caller, ctx.params.id!, ctx.request.signal)
    })
    app.get(`${prefix}/task/:id/image-seed`, async ({ caller, params }: Ctx) => {
      const mode = modeOf(params)
      return imageSeed(deps, await origin(caller, params.id!), mode)
    })
  }
  return app
}

function modeOf(params: Record<string, string> | undefined): string | undefined {
  const mode = params?.mode
  if (mode !== undefined && !MODES.test(mode)) throw new NotFoundError(`no such route: /${mode}/mj (modes: mj-fast, mj-turbo, mj-relax)`, 'not_found')
  return mode
}

/** The narrow pieces a submit uses. */
export function taskDeps(deps: AppDeps) {
  return { routing: deps.routing, options: deps.options, affinity: deps.affinity, outbound: deps.outbound, ops: deps.ops, tasks: deps.repos.tasks, clock: deps.clock }
}
