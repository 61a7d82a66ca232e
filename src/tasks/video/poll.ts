import type { TaskRow } from '../../db/repos/tasks'
import type { OptionStore } from '../../options/store'
import type { OutboundFetch } from '../../outbound/fetch'
import { boundedText, parseJson } from '../../outbound/bounded-body'
import { joinUrl } from '../../providers/url'
import type { Channel } from '../../relay/routing'
import { mapModel } from '../../relay/routing/model-mapping'
import { parseData } from '../midjourney'
import { boundedData, type PolledTask } from '../types'
import type { VideoVendor } from './types'

/** A fetch's answer is one task's JSON: bounded all the same. */
const MAX_FETCH_ANSWER = 4 << 20
/** Calls in flight to one channel at a time in a round. */
const PER_CHANNEL = 4

interface VideoPollDeps {
  options: Pick<OptionStore, 'get'>
  outbound: { fetch: OutboundFetch }
  clock: { now(): number }
}

type Apply<D> = (deps: D, task: TaskRow, news: PolledTask | null | undefined) => Promise<void>

/**
 * One round's fetches of a channel's video tasks, leased to this node by the poller: one call per task (no video
 * API fetches many at once), a few at a time, each answer handed to the poller's `apply` (which ends, refunds or
 * reschedules the task). What the upstream reports is laid over what the task keeps (its ratios, its remix origin).
 */
export async function pollVideos<D extends VideoPollDeps>(deps: D, channel: Channel, vendor: VideoVendor, tasks: TaskRow[], apply: Apply<D>): Promise<void> {
  const queue = [...tasks]
  const worker = async () => {
    for (let task = queue.shift(); task; task = queue.shift()) await apply(deps, task, await fetchOne(deps, channel, vendor, task))
  }
  await Promise.all(Array.from({ length: Math.min(PER_CHANNEL, tasks.length) }, worker))
}

/** undefined: no answer (try later); null: the vendor does not know the task. */
async function fetchOne(deps: VideoPollDeps, channel: Channel, vendor: VideoVendor, task: TaskRow): Promise<PolledTask | null | undefined> {
  const key = channel.keys[0] ?? ''
  try {
    const call = vendor.fetch(task, task.upstreamTaskId || task.taskId, mapModel(channel.modelMapping, task.model))
    const url = joinUrl(channel.baseUrl, call.path)
    const headers = { ...call.headers, ...vendor.authorize(new URL(url), call, key, deps.clock.now()) }
    const response = await deps.outbound.fetch(url, { method: call.method, headers, body: call.body, signal: AbortSignal.timeout(30_000), proxy: channel.overrides.proxy })
    const text = await boundedText(response, MAX_FETCH_ANSWER)
    // a 404 is the vendor saying it does not know the task: counted toward TaskLostPolls
    if (response.status === 404) return null
    if (!response.ok || text === undefined) {
      console.warn(`video poll of task ${task.taskId} (channel ${channel.id}): upstream ${response.status}${text === undefined ? ' (answer too large)' : ''}`)
      return undefined
    }
    const maxData = deps.options.get<number>('TaskResultMaxBytes')
    const read = vendor.readFetch(parseJson(text), maxData)
    if (!read) return null
    const patch = read.patch.data === undefined ? read.patch : { ...read.patch, data: boundedData({ ...parseData(task.data), ...parseData(read.patch.data) }, maxData, ['ratios', 'seconds', 'size']) }
    return { taskId: task.taskId, patch, final: read.final }
  } catch (error) {
    console.warn(`video poll of task ${task.taskId} (channel ${channel.id}): ${(error as Error).message}`)
    return undefined
  }
}
