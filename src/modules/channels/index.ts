import { Elysia } from 'elysia'
import type { AppDeps } from '../../deps'
import { ok, type Envelope } from '../../plugins/envelope'
import { pageOf, pageWindow } from '../../plugins/paging'
import { sessionPlugin } from '../../plugins/session'
import { Role } from '../../db/repos/user-roles'
import { manageLogHook } from '../../metering/manage-log'
import { PROVIDERS } from '../../providers/registry'
import { updateAllBalances, updateChannelBalance } from './balance'
import { listUpstreamModels, previewUpstreamModels, runChannelTest, testAllChannels } from './checks'
import { keyStates } from './view'
import { BatchTagBody, ChannelEdit, CopyQuery, CreateBody, FetchModelsBody, IdParams, IdsBody, ListQuery, TagBody, TagEdit, TestQuery, UpstreamApplyBody, UpstreamDetectBody } from './schemas'
import { applyUpstreamChanges, detectAllUpstreamChanges, detectUpstreamChanges } from './upstream-updates'
import { runScheduledUpstreamCheck } from './upstream-schedule'
import {
  channelFilterOf,
  copyChannel,
  createChannels,
  deleteChannel,
  deleteChannels,
  editChannel,
  editTag,
  findChannel,
  setTagStatus,
  tagChannels,
  viewOf,
} from './service'

/** Channel management for admins (new-api's /api/channel paths). Keys are write-only: responses show a mask. */
export function channelsModule(deps: AppDeps) {
  const admin = { role: Role.admin }
  // the background job `upstream-model-check` (deps.ts) runs this on the node holding its lease
  deps.upstreamModelCheck.run = () => runScheduledUpstreamCheck(deps)

  const list = async (query: ListQuery) => {
    const window = pageWindow(query)
    const page = await deps.repos.channels.list(channelFilterOf(query), window.offset, window.pageSize)
    return ok(pageOf(page.items.map((row) => viewOf(deps, row)), page.total, window))
  }

  return new Elysia({ name: 'channels' })
    .use(sessionPlugin(deps))
    .onAfterHandle(manageLogHook(deps, 'channel'))
    .get('/api/channel/', ({ query }) => list(query), { ...admin, query: ListQuery })
    .get('/api/channel/search', ({ query }) => list(query), { ...admin, query: ListQuery })
    .get('/api/channel/tags', async () => ok(await deps.repos.channels.tags()), admin)
    .get(
      '/api/channel/models',
      () =>
        ok(
          PROVIDERS.map((p) => ({
            type: p.type,
            name: p.name,
            protocols: p.protocols,
            default_base_url: p.defaultBaseUrl,
            key_required: p.keyRequired,
            test_model: p.testModel,
            models: p.models,
            ...(p.note ? { note: p.note } : {}),
            ...(p.otherField ? { other_field: p.otherField } : {}),
          })),
        ),
      admin,
    )
    .get('/api/channel/:id', async ({ params }) => ok(viewOf(deps, await findChannel(deps, Number(params.id)))), { ...admin, params: IdParams })
    .get(
      '/api/channel/:id/keys',
      async ({ params }) => {
        const id = Number(params.id)
        await findChannel(deps, id)
        const keys = deps.routing.channels.get(id)?.keys ?? []
        return ok(keyStates(keys, (key) => deps.routing.keyOutOfRotation(id, key)))
      },
      { ...admin, params: IdParams },
    )
    .post(
      '/api/channel/',
      async ({ body }) => {
        const created = await createChannels(deps, body)
        const batch = body.mode === 'batch'
        return ok(batch ? created : created[0], `created ${created.length} channel${created.length === 1 ? '' : 's'}`)
      },
      { ...admin, body: CreateBody },
    )
    .put('/api/channel/', async ({ body, user }) => ok(await editChannel(deps, body, user.role >= Role.root)), { ...admin, body: ChannelEdit })
    .delete(
      '/api/channel/:id',
      async ({ params }) => {
        await deleteChannel(deps, Number(params.id))
        return ok(null, 'channel deleted')
      },
      { ...admin, params: IdParams },
    )
    .post(
      '/api/channel/batch',
      async ({ body }) => {
        const n = await deleteChannels(deps, body.ids)
        return ok(n, `deleted ${n} channel${n === 1 ? '' : 's'}`)
      },
      { ...admin, body: IdsBody },
    )
    .post('/api/channel/batch/tag', async ({ body }) => ok(await tagChannels(deps, body.ids, body.tag)), { ...admin, body: BatchTagBody })
    .post('/api/channel/tag/enabled', async ({ body }) => ok(await setTagStatus(deps, body.tag, true)), { ...admin, body: TagBody })
    .post('/api/channel/tag/disabled', async ({ body }) => ok(await setTagStatus(deps, body.tag, false)), { ...admin, body: TagBody })
    .put('/api/channel/tag', async ({ body }) => ok(await editTag(deps, body)), { ...admin, body: TagEdit })
    .get(
      '/api/channel/test',
      async ({ request, server }) => {
        server?.timeout(request, 0) // tests take up to 30 s each: Bun's 10 s idle timeout would cut the answer
        const lines = await testAllChannels(deps)
        const failed = lines.filter((l) => !l.success).length
        return ok(lines, `tested ${lines.length} channel${lines.length === 1 ? '' : 's'}, ${failed} failed`)
      },
      admin,
    )
    .get(
      '/api/channel/test/:id',
      async ({ params, query, request, server }) => {
        server?.timeout(request, 0) // every key, up to 30 s each: longer than Bun's 10 s idle timeout
        const r = await runChannelTest(deps, Number(params.id), query.model)
        // new-api's shape: the envelope's success/message are the test's own verdict; a failure's code and request besides
        const failure = r.ok ? {} : { code: r.code ?? 'upstream_status', method: r.request?.method ?? '', url: r.request?.url ?? '' }
        return {
          success: r.ok,
          message: r.message,
          data: { time: r.timeMs / 1000, time_ms: r.timeMs, status_code: r.status, model: r.model, upstream_model: r.upstreamModel, ...failure },
        } satisfies Envelope<unknown>
      },
      { ...admin, params: IdParams, query: TestQuery },
    )
    .post('/api/channel/fetch_models', async ({ body, request, server }) => {
      server?.timeout(request, 0) // the upstream has up to 30 s: longer than Bun's 10 s idle timeout
      return ok(await previewUpstreamModels(deps, body))
    }, { ...admin, body: FetchModelsBody })
    .post(
      '/api/channel/copy/:id',
      async ({ params, query }) => ok(await copyChannel(deps, Number(params.id), query.suffix ?? '_复制', query.reset_balance !== 'false')),
      { ...admin, params: IdParams, query: CopyQuery },
    )
    .get('/api/channel/fetch_models/:id', async ({ params }) => ok(await listUpstreamModels(deps, Number(params.id))), {
      ...admin,
      params: IdParams,
    })
    // new-api's /api/channel/upstream_updates/*: the upstream's model list against the channel's (upstream-updates.ts)
    .post('/api/channel/upstream_updates/detect', async ({ body, request, server }) => {
      server?.timeout(request, 0) // the upstream has up to 30 s: longer than Bun's 10 s idle timeout
      return ok(await detectUpstreamChanges(deps, body.id))
    }, { ...admin, body: UpstreamDetectBody })
    .post('/api/channel/upstream_updates/detect_all', async ({ request, server }) => {
      server?.timeout(request, 0) // one upstream call per enabled channel, a few at a time
      return ok(await detectAllUpstreamChanges(deps))
    }, admin)
    .post('/api/channel/upstream_updates/apply', async ({ body, request, server }) => {
      server?.timeout(request, 0) // the list is fetched again before the edit
      return ok(await applyUpstreamChanges(deps, body))
    }, { ...admin, body: UpstreamApplyBody })
    // new-api's shape: the balance at the top level too (its console reads `balance`)
    .get('/api/channel/update_balance/:id', async ({ params }) => {
      const balance = await updateChannelBalance(deps, Number(params.id))
      return { success: true, message: '', balance, data: { balance } }
    }, { ...admin, params: IdParams })
    .get('/api/channel/update_balance', async ({ request, server }) => {
      server?.timeout(request, 0) // one vendor call after another, each up to 10 s
      return ok(await updateAllBalances(deps))
    }, admin)
}
