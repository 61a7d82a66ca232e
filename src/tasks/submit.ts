import type { TaskRepo } from '../db/repos/tasks'
import { GatewayError, NotFoundError } from '../errors'
import { emptyUsage } from '../ir'
import { quotaFor, requirePrice } from '../metering/prices'
import { joinUrl } from '../providers/url'
import { runRelay, type RelayJob } from '../relay/engine'
import { isRetryableStatus, UpstreamFailure } from '../relay/failure'
import { maskSecrets } from '../relay/mask'
import { exactMeter } from '../relay/meter/meter'
import { asUpstreamFailure, guardedFetch, openAttempt } from '../relay/send'
import type { RelayCall, RelayHooks, RelayPorts } from '../relay/types'
import { boundedText, parseJson } from '../outbound/bounded-body'
import type { SubmitSpec, TaskPlatform } from './types'

/** A submit's answer is small JSON: anything past this is not read. */
const MAX_SUBMIT_ANSWER = 1 << 20

export interface SubmitDeps extends RelayPorts {
  tasks: Pick<TaskRepo, 'insert' | 'countRunning'>
  clock: { now(): number }
}

/**
 * Submit one task as a job of the engine: the channels that serve the platform (for an action on an earlier task,
 * that task's channel only), the task's price reserved (ModelPrice, per task), one upstream call per attempt. A
 * task the upstream took is stored and charged; one it refused is a 400 naming the upstream's reason, charged nothing.
 */
export async function submitTask(deps: SubmitDeps, call: RelayCall, platform: TaskPlatform, spec: SubmitSpec, hooks: RelayHooks): Promise<Response> {
  const limit = deps.options.get<number>('TaskMaxInFlightPerUser')
  if (spec.keepsTask && (await deps.tasks.countRunning(call.user.id)) >= limit) {
    throw new GatewayError(429, 'too_many_tasks', `you have ${limit} tasks running (TaskMaxInFlightPerUser): wait for one to end`)
  }
  return runRelay(deps, call, submitJob(deps, call, platform, spec), hooks)
}

function submitJob(deps: SubmitDeps, call: RelayCall, platform: TaskPlatform, spec: SubmitSpec): RelayJob {
  return {
    model: spec.model,
    stream: false,
    warnings: [],
    serving: (planned) => planned.filter((c) => c.channel.provider.tasks === platform.id && (!spec.origin || c.channel.id === spec.origin.channelId)),
    noneServes: () =>
      spec.origin ? new NotFoundError(`the channel that ran task ${spec.origin.taskId} no longer serves ${spec.model}`, 'model_not_found') : new NotFoundError(`no channel serves ${spec.model} as a ${platform.id} task`, 'model_not_found'),
    meter: () => exactMeter(spec.model, 'token', 0),
    async attempt(candidate, attempt) {
      const { channel, key } = candidate
      const scope = openAttempt(deps, call.signal)
      let answer: unknown
      try {
        attempt.sending()
        const headers = { 'content-type': 'application/json', ...platform.headers(key) }
        const response = await guardedFetch(deps, joinUrl(channel.baseUrl, spec.path), { headers, body: JSON.stringify(spec.body), proxy: channel.overrides.proxy }, scope, call.signal, key)
        const text = await boundedText(response, MAX_SUBMIT_ANSWER)
        if (text === undefined) throw new UpstreamFailure(0, 'the upstream answered more than 1 MiB to a submit', true)
        if (!response.ok) throw new UpstreamFailure(response.status, `upstream ${response.status}: ${maskSecrets(text.slice(0, 300), key)}`, isRetryableStatus(response.status))
        answer = parseJson(text)
        if (answer === undefined) throw new UpstreamFailure(0, `the upstream's submit answer is not JSON: ${maskSecrets(text.slice(0, 200), key)}`, true)
      } catch (error) {
        throw asUpstreamFailure(error, scope, call.signal, key)
      } finally {
        scope.close()
      }
      const read = platform.readSubmit(answer)
      // a refusal of the request (a banned prompt) is the caller's fault, not the channel's: a 400, never counted
      // toward disabling the channel, settled as a failure (nothing charged)
      if (!read.accepted) throw new UpstreamFailure(400, `the upstream refused the task: ${maskSecrets(read.message, key)}`, false)
      const doneAt = performance.now()
      if (spec.keepsTask && read.taskId) await keep(deps, call, platform, spec, channel.id, read.taskId, read.status)
      attempt.end({ usage: emptyUsage(), aborted: false, firstByteAt: doneAt })
      return { body: JSON.stringify(answer), headers: { 'content-type': 'application/json', 'x-request-id': call.requestId }, upstreamDoneAt: doneAt }
    },
  }
}

async function keep(deps: SubmitDeps, call: RelayCall, platform: TaskPlatform, spec: SubmitSpec, channelId: number, taskId: string, status = 'SUBMITTED'): Promise<void> {
  const group = call.token.group || call.user.group
  // what settle charges a task priced per call; kept with the task for its refund
  const quota = quotaFor(requirePrice(deps.options, spec.model, group), emptyUsage(), deps.options.get<number>('QuotaPerUnit'))
  const now = deps.clock.now()
  await deps.tasks.insert({
    taskId,
    platform: platform.id,
    userId: call.user.id,
    tokenId: call.token.id,
    channelId,
    group,
    action: spec.action,
    model: spec.model,
    status,
    prompt: spec.prompt.slice(0, 8000),
    quota,
    submitTime: now,
    requestId: call.requestId,
    nextPollAt: now + deps.options.get<number>('TaskPollIntervalSeconds') * 1000,
  })
}
