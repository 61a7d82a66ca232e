import type { TaskRepo } from '../../db/repos/tasks'
import { GatewayError, NotFoundError } from '../../errors'
import { emptyUsage } from '../../ir'
import { taskRatio } from '../../metering/price-terms'
import { quotaFor, requirePrice } from '../../metering/prices'
import { boundedText, parseJson } from '../../outbound/bounded-body'
import { joinUrl } from '../../providers/url'
import { runRelay, type RelayJob } from '../../relay/engine'
import { isRetryableStatus, UpstreamFailure } from '../../relay/failure'
import { maskSecrets } from '../../relay/mask'
import { exactMeter } from '../../relay/meter/meter'
import { asUpstreamFailure, guardedFetch, openAttempt } from '../../relay/send'
import type { RelayCall, RelayHooks, RelayPorts } from '../../relay/types'
import { publicTaskId } from './ids'
import type { VideoRequest, VideoVendor } from './types'
import { vendorServing } from './vendors'
import { videoView } from './view'

/** A submit's answer is small JSON: anything past this is not read. */
const MAX_SUBMIT_ANSWER = 1 << 20

export interface VideoSubmitDeps extends RelayPorts {
  tasks: Pick<TaskRepo, 'insert' | 'countRunning'>
  clock: { now(): number }
}

/**
 * Submit one video as a task of the engine: the channels whose type serves a video vendor and list the model (a
 * remix: its video's channel only), the price reserved (ModelPrice × the vendor's ratios: seconds, size), one call
 * per attempt, signed by the vendor. A video the upstream took is kept under a public id of ours (`task_…`, as
 * new-api gives) and charged; one it refused is a 400 naming the reason, charged nothing. Answers the task in
 * OpenAI's video shape.
 */
export async function submitVideo(deps: VideoSubmitDeps, call: RelayCall, request: VideoRequest, hooks: RelayHooks): Promise<Response> {
  const limit = deps.options.get<number>('TaskMaxInFlightPerUser')
  if ((await deps.tasks.countRunning(call.user.id)) >= limit) {
    throw new GatewayError(429, 'too_many_tasks', `you have ${limit} tasks running (TaskMaxInFlightPerUser): wait for one to end`)
  }
  return runRelay(deps, call, videoJob(deps, call, request), hooks)
}

function videoJob(deps: VideoSubmitDeps, call: RelayCall, request: VideoRequest): RelayJob {
  let vendorRatios: Record<string, number> = {}
  return {
    model: request.model,
    stream: false,
    warnings: [],
    serving: (planned) => {
      const serving = planned.filter((c) => vendorServing(c.channel) !== undefined && (!request.origin || c.channel.id === request.origin.channelId))
      // priced by the ratios of the vendor the first channel speaks: a model's channels are priced alike
      const first = serving[0] && vendorServing(serving[0].channel)
      vendorRatios = first ? first.ratios(request) : {}
      return serving
    },
    noneServes: () =>
      request.origin
        ? new NotFoundError(`the channel that made video ${request.origin.taskId} no longer serves ${request.model}`, 'model_not_found')
        : new NotFoundError(`no channel serves ${request.model} as a video model`, 'model_not_found'),
    meter: () => ({ ...exactMeter(request.model, 'token', 0), ratios: vendorRatios }),
    async attempt(candidate, attempt) {
      const { channel, key } = candidate
      const vendor = vendorServing(channel)!
      const upstreamId = await send(deps, call, vendor, request, candidate.upstreamModel, channel, key, () => attempt.sending())
      const doneAt = performance.now()
      const row = await keep(deps, call, vendor, request, channel.id, upstreamId, vendorRatios)
      attempt.end({ usage: emptyUsage(), aborted: false, firstByteAt: doneAt })
      return { body: JSON.stringify(videoView(row)), headers: { 'content-type': 'application/json', 'x-request-id': call.requestId }, upstreamDoneAt: doneAt }
    },
  }
}

async function send(
  deps: VideoSubmitDeps,
  call: RelayCall,
  vendor: VideoVendor,
  request: VideoRequest,
  upstreamModel: string,
  channel: { baseUrl: string; overrides: { proxy?: string } },
  key: string,
  sending: () => void,
): Promise<string> {
  const scope = openAttempt(deps, call.signal)
  let answer: unknown
  try {
    const upstream = await vendor.submit(request, upstreamModel)
    const url = joinUrl(channel.baseUrl, upstream.path)
    const headers = { ...upstream.headers, ...vendor.authorize(new URL(url), upstream, key, deps.clock.now()) }
    sending()
    const response = await guardedFetch(deps, url, { method: upstream.method, headers, body: upstream.body, proxy: channel.overrides.proxy }, scope, call.signal, key)
    const text = await boundedText(response, MAX_SUBMIT_ANSWER)
    if (text === undefined) throw new UpstreamFailure(0, 'the upstream answered more than 1 MiB to a video submit', true)
    if (!response.ok) throw new UpstreamFailure(response.status, `upstream ${response.status}: ${maskSecrets(text.slice(0, 300), key)}`, isRetryableStatus(response.status))
    answer = parseJson(text)
    if (answer === undefined) throw new UpstreamFailure(0, `the upstream's submit answer is not JSON: ${maskSecrets(text.slice(0, 200), key)}`, true)
  } catch (error) {
    throw asUpstreamFailure(error, scope, call.signal, key)
  } finally {
    scope.close()
  }
  const read = vendor.readSubmit(answer)
  // the vendor refused the request itself (a prompt it will not render): the caller's fault, charged nothing
  if (!read.accepted) throw new UpstreamFailure(400, `the upstream refused the video: ${maskSecrets(read.message, key)}`, false)
  return read.upstreamId
}

async function keep(deps: VideoSubmitDeps, call: RelayCall, vendor: VideoVendor, request: VideoRequest, channelId: number, upstreamId: string, ratios: Record<string, number>) {
  const group = call.token.group || call.user.group
  // what settle charges: the per-call price times the ratios; kept with the task for its refund
  const price = requirePrice(deps.options, request.model, group)
  const quota = quotaFor({ ...price, multiplier: taskRatio({ ratios }) }, emptyUsage(), deps.options.get<number>('QuotaPerUnit'))
  const now = deps.clock.now()
  return deps.tasks.insert({
    taskId: publicTaskId(),
    upstreamTaskId: upstreamId,
    platform: vendor.id,
    userId: call.user.id,
    tokenId: call.token.id,
    channelId,
    group,
    action: vendor.action(request),
    model: request.model,
    status: 'SUBMITTED',
    prompt: request.prompt.slice(0, 8000),
    data: JSON.stringify({ ratios, ...(request.seconds !== undefined && { seconds: String(request.seconds) }), ...(request.size && { size: request.size }), ...(request.origin && { remixed_from_video_id: request.origin.taskId }) }),
    quota,
    submitTime: now,
    requestId: call.requestId,
    nextPollAt: now + deps.options.get<number>('TaskPollIntervalSeconds') * 1000,
  })
}
