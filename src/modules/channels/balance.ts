import { boundedText } from '../../outbound/bounded-body'
import type { AppDeps } from '../../deps'
import { GatewayError, NotFoundError } from '../../errors'
import type { Channel } from '../../relay/routing/channel'
import { BALANCE_ENDPOINTS } from './balance-endpoints'

/** A vendor's answer is a small JSON object: more than this is not one (and is not read further). */
const MAX_ANSWER_BYTES = 256 * 1024
const TIMEOUT_MS = 10_000

type Deps = Pick<AppDeps, 'routing' | 'repos' | 'notifier'>

/**
 * new-api's GET /api/channel/update_balance/:id: asks the channel's vendor for the account's balance, through the
 * outbound guard with the channel's first key, and stores it with the time. A vendor without a balance endpoint is a
 * 400 `balance_unsupported`; a failed or unreadable answer a 502 `balance_failed` (the stored balance is left).
 */
export async function updateChannelBalance(deps: Deps, id: number): Promise<number> {
  await deps.routing.channels.ready
  const channel = deps.routing.channels.get(id)
  if (!channel) throw new NotFoundError(`channel ${id} not found`)
  const balance = await fetchBalance(deps, channel)
  const before = await deps.repos.channels.findById(id)
  await deps.routing.channels.recordBalance(id, balance, Math.floor(Date.now() / 1000))
  // a balance never fetched before is no reading to compare with: a low first one is news too
  deps.notifier.channelBalance(id, channel.name, balance, before && before.balanceUpdatedTime > 0 ? before.balance : undefined)
  return balance
}

/** GET /api/channel/update_balance: every enabled channel whose vendor has a balance endpoint, one at a time; failures are skipped. */
export async function updateAllBalances(deps: Deps): Promise<{ updated: number; failed: number }> {
  await deps.routing.channels.ready
  let updated = 0
  let failed = 0
  for (const channel of deps.routing.channels.all()) {
    if (channel.status !== 1 || !BALANCE_ENDPOINTS[channel.provider.id]) continue
    try {
      await updateChannelBalance(deps, channel.id)
      updated++
    } catch {
      failed++
    }
  }
  return { updated, failed }
}

async function fetchBalance(deps: Deps, channel: Channel): Promise<number> {
  const endpoint = BALANCE_ENDPOINTS[channel.provider.id]
  if (!endpoint) throw new GatewayError(400, 'balance_unsupported', `${channel.provider.name} has no balance endpoint Tollgate knows`, undefined, undefined, { code: 'balance_unsupported' })
  const base = channel.baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '')
  const answers = []
  for (const path of endpoint.paths(new Date())) answers.push(await getJson(deps, `${base}${path}`, channel.keys[0] ?? ''))
  const balance = endpoint.read(answers)
  if (balance === undefined) throw failed('the answer has no balance')
  return balance
}

async function getJson(deps: Deps, url: string, key: string): Promise<Record<string, unknown>> {
  let response: Response
  try {
    response = await deps.routing.upstreamFetch(url, { headers: { authorization: `Bearer ${key}`, accept: 'application/json' }, signal: AbortSignal.timeout(TIMEOUT_MS), redirect: 'manual' })
  } catch (error) {
    throw failed(`${new URL(url).host} did not answer (${(error as Error).name})`)
  }
  const text = await boundedText(response, MAX_ANSWER_BYTES)
  if (!response.ok) throw failed(`${new URL(url).host} answered ${response.status}`)
  try {
    const json = JSON.parse(text ?? '')
    if (json && typeof json === 'object') return json as Record<string, unknown>
  } catch {
    // fall through: not JSON
  }
  throw failed(`${new URL(url).host} did not answer JSON`)
}

const failed = (why: string) => new GatewayError(502, 'balance_failed', `updating the balance failed, the upstream's answer: ${why}`, undefined, undefined, { code: 'balance_failed' })
