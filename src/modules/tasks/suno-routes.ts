import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../deps'
import { NotFoundError } from '../../errors'
import { idCarriedByResponse, type ArrivedContext } from '../../plugins/request-context'
import type { VerifiedToken } from '../../relay/auth'
import type { RelayHooks } from '../../relay/types'
import { submitTask } from '../../tasks/submit'
import { sunoPlatform, sunoView } from '../../tasks/suno'
import { apiKeyAuth } from '../relay/api-key-auth'
import { assertJsonBody, parseRawJson, type RawBodyContext } from '../relay/raw-body'
import { relayCallOf } from '../relay/relay-input'
import { taskDeps } from './mj-routes'

interface Ctx extends ArrivedContext {
  request: Request
  caller: VerifiedToken
  clientIp: string
  set: { headers: Record<string, unknown> }
  params: Record<string, string>
}

const Text = (max: number) => t.Optional(t.String({ maxLength: max }))
const SubmitBody = t.Object(
  { prompt: Text(8192), gpt_description_prompt: Text(8192), mv: Text(64), title: Text(400), tags: Text(1000), continue_clip_id: Text(128), task_id: Text(128) },
  { additionalProperties: true },
)
const FetchBody = t.Object({ ids: t.Array(t.String({ minLength: 1, maxLength: 128 }), { maxItems: 100 }), action: t.Optional(t.String({ maxLength: 40 })) }, { additionalProperties: true })

const ok = (data: unknown) => ({ code: 'success', message: '', data })

/** Suno as new-api relays it: `/suno/submit/{music|lyrics}`, `/suno/fetch` (many) and `/suno/fetch/{id}`, in new-api's `{code, message, data}`. */
export function sunoRoutes(deps: AppDeps, hooks: RelayHooks) {
  return new Elysia({ name: 'tasks-suno' })
    .use(apiKeyAuth(deps, 'suno', () => []))
    .onTransform(({ request, rawBody }: RawBodyContext & { request: Request }) => {
      if (request.method === 'POST') assertJsonBody(rawBody)
    })
    .post(
      '/suno/submit/:action',
      ({ request, caller, clientIp, arrival, set, params, body }: Ctx & { body: Record<string, unknown> }) => {
        const action = params.action!
        if (action !== 'music' && action !== 'lyrics') throw new NotFoundError(`no such Suno action "${action}" (music, lyrics)`, 'invalid_action')
        idCarriedByResponse(set)
        const prompt = (body.prompt as string | undefined) || (body.gpt_description_prompt as string | undefined) || ''
        const spec = { action: action.toUpperCase(), model: `suno_${action}`, path: `/suno/submit/${action}`, body, prompt, keepsTask: true }
        return submitTask(taskDeps(deps), relayCallOf(`/suno/submit/${action}`, { request, caller, clientIp, arrival }), sunoPlatform, spec, hooks)
      },
      { parse: parseRawJson, body: SubmitBody },
    )
    .post(
      '/suno/fetch',
      async (ctx: Ctx & { body: { ids: string[]; action?: string } }) => {
        const rows = await deps.repos.tasks.findOwned(ctx.caller.user.id, 'suno', ctx.body.ids)
        const wanted = ctx.body.action ? rows.filter((row) => row.action === ctx.body.action!.toUpperCase()) : rows
        return ok(wanted.map(sunoView))
      },
      { parse: parseRawJson, body: FetchBody },
    )
    .get('/suno/fetch/:id', async (ctx: Ctx) => {
      const [row] = await deps.repos.tasks.findOwned(ctx.caller.user.id, 'suno', [ctx.params.id!])
      if (!row) throw new NotFoundError(`task ${ctx.params.id!} not found`, 'task_not_found')
      return ok(sunoView(row))
    })
}
