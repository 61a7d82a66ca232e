import type { UserRow } from '../../src/db/repos'
import { LogType } from '../../src/db/repos/logs'
import { startRelayEnv, type RelayEnv } from '../helpers/relay-env'
import { until } from '../helpers/wait'

/** A gateway for video tests: prices on, the background poller stopped (tests poll by hand on a clock they move). */
export async function startVideoEnv() {
  const env: RelayEnv = await startRelayEnv()
  const { deps } = env.app
  deps.taskPoller.stop()
  await deps.options.set('SelfUseModeEnabled', false)
  let now = Date.now()
  deps.clock.now = () => now
  const interval = () => deps.options.get<number>('TaskPollIntervalSeconds') * 1000
  return {
    env,
    /** move the clock past the next poll and run one round */
    async pollRound(): Promise<number> {
      now += interval() + 1
      return deps.taskPoller.pollNow()
    },
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
    /** the stored row of a video by the id its client was given */
    async row(taskId: string) {
      return (await deps.repos.tasks.list({ taskId }, 0, 1)).items[0]!
    },
  }
}
