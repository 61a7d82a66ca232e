import type { AppDeps } from '../../deps'
import type { TaskRow } from '../../db/repos/tasks'
import { GatewayError, NotFoundError } from '../../errors'
import { joinUrl } from '../../providers/url'
import { maskSecrets } from '../../relay/mask'
import { boundedText, parseJson } from '../../outbound/bounded-body'
import { midjourneyPlatform } from '../../tasks/midjourney'

/** A finished task's seed, asked of the channel that ran it (midjourney-proxy's `/mj/task/{id}/image-seed`); not charged. */
export async function imageSeed(deps: Pick<AppDeps, 'routing' | 'outbound'>, task: TaskRow, mode: string | undefined): Promise<unknown> {
  const channel = deps.routing.channels.get(task.channelId)
  if (!channel) throw new NotFoundError(`the channel that ran task ${task.taskId} is gone`, 'channel_not_found')
  const key = channel.keys[0] ?? ''
  const path = `${mode ? `/${mode}` : ''}/mj/task/${encodeURIComponent(task.taskId)}/image-seed`
  let response: Response
  try {
    response = await deps.outbound.fetch(joinUrl(channel.baseUrl, path), { method: 'GET', headers: midjourneyPlatform.headers(key), signal: AbortSignal.timeout(30_000), proxy: channel.overrides.proxy })
  } catch (error) {
    throw new GatewayError(502, 'upstream_unavailable', `the upstream did not answer: ${maskSecrets((error as Error).message, key)}`)
  }
  const text = await boundedText(response, 64 * 1024)
  const body = text === undefined ? undefined : parseJson(text)
  if (!response.ok || body === undefined) throw new GatewayError(502, 'upstream_error', `the upstream answered ${response.status} to image-seed`)
  return body
}
