import type { UserRow } from '../../src/db/repos'
import { LogType } from '../../src/db/repos/logs'
import { startFakeMidjourney } from '../helpers/fake-upstreams/midjourney-proxy'
import { startFakeSuno } from '../helpers/fake-upstreams/suno'
import { startRelayEnv, type RelayEnv } from '../helpers/relay-env'
import { until } from '../helpers/wait'

const MJ_SECRET = 'mj-proxy-secret-0123456789'
export const SUNO_KEY = 'suno-key-0123456789abcdef'

/** A gateway with a Midjourney channel (type 2) and a Suno channel (type 36) on their fakes, prices on, the background poller stopped: tests poll by hand on a clock they move. */
export async function startTaskEnv(options: { mjHostsImages?: boolean } = {}) {
  const env: RelayEnv = await startRelayEnv()
  const mj = await startFakeMidjourney(MJ_SECRET, { hostsImages: options.mjHostsImages })
  const suno = await startFakeSuno(SUNO_KEY)
  const { deps } = env.app
  deps.taskPoller.stop()
  await deps.options.set('SelfUseModeEnabled', false)
  const mjChannel = await env.addChannel({ type: 2, baseUrl: mj.url, keyText: MJ_SECRET, models: 'mj_imagine,mj_upscale,mj_variation,mj_upload,mj_blend,mj_describe,mj_modal,mj_shorten' })
  const sunoChannel = await env.addChannel({ type: 36, baseUrl: suno.url, keyText: SUNO_KEY, models: 'suno_music,suno_lyrics' })
  let now = Date.now()
  deps.clock.now = () => now
  const interval = () => deps.options.get<number>('TaskPollIntervalSeconds') * 1000
  return {
    env,
    mj,
    suno,
    mjChannel,
    sunoChannel,
    /** move the clock past the next poll and run one round */
    async pollRound(): Promise<number> {
      now += interval() + 1
      return deps.taskPoller.pollNow()
    },
    advance(ms: number) {
      now += ms
    },
    /** the user's balance once every settlement so far is written */
    async quotaOf(user: UserRow = env.user): Promise<number> {
      await deps.metering.settledAll()
      return (await deps.repos.users.findById(user.id))!.quota
    },
    async settled(count: number) {
      await until(() => env.outcomes.length >= count, { what: `${count} settled requests` })
      await deps.metering.settledAll()
    },
    async refundRows() {
      await deps.metering.logs.flush()
      return (await deps.repos.logs.list({ type: LogType.system }, 0, 50)).items
    },
    async stop() {
      await env.stop()
      mj.stop()
      suno.stop()
    },
  }
}
