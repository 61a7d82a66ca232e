import { randomUUID } from 'node:crypto'
import { periodic } from '../cluster/periodic'
import { pollOnce, type PollerDeps } from './poller'

/** How often a node looks for due tasks; each task's own pace is TaskPollIntervalSeconds. */
const TICK_MS = 1000

export interface TaskPoller {
  start(): void
  stop(): void
  /** one round now (tests wait on it instead of the clock) */
  pollNow(): Promise<number>
  readonly nodeId: string
}

/**
 * The task poller every node runs: each tick claims the due tasks no other node holds (their leases, src/db's task
 * repository), so the nodes share the polling without polling one task twice, and the tasks of a node that died
 * are picked up once its leases lapse.
 */
export function createTaskPoller(deps: Omit<PollerDeps, 'nodeId'>): TaskPoller {
  const nodeId = randomUUID()
  const poller = { ...deps, nodeId }
  const round = () => pollOnce(poller)
  const schedule = periodic('task polling', TICK_MS, TICK_MS, round)
  return { start: schedule.start, stop: schedule.stop, pollNow: round, nodeId }
}
