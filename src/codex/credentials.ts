import type { Coordination } from '../coord'
import { BadRequestError, ConflictError, NotFoundError } from '../errors'
import type { OutboundFetch } from '../outbound/fetch'
import { expiresAt, readCodexKey, type CodexKey } from '../providers/codex/key'
import type { Channel } from '../relay/routing'
import type { ChannelStore } from '../relay/routing/channel-store'
import { refreshKey } from './oauth'

const CODEX_TYPE = 57

/** What the sign-in, its refresh and the usage route need. */
export interface CodexPorts {
  fetch: OutboundFetch
  channels: Pick<ChannelStore, 'get' | 'all' | 'update' | 'reload'>
  coord: Pick<Coordination, 'tryAcquireLease'>
  now(): number
}

/** A refresh holds this lease for the channel: one node spends a refresh token at a time (it rotates on each use). */
const LEASE_MS = 30_000
const leaseName = (id: number) => `codex-refresh:${id}`

/** The Codex channel, or a 404 / 400 as new-api answers (`channel not found`, `channel type is not Codex`). */
export function codexChannel(ports: Pick<CodexPorts, 'channels'>, id: number): Channel {
  const channel = ports.channels.get(id)
  if (!channel) throw new NotFoundError(`channel ${id} not found`)
  if (channel.type !== CODEX_TYPE) throw new BadRequestError('channel type is not Codex', 'id')
  return channel
}

/** The channel's one key as a Codex key (a multi-key channel is refused, as new-api does). */
export function codexKeyOf(channel: Channel): CodexKey {
  if (channel.keys.length !== 1) throw new BadRequestError(channel.keys.length ? 'a multi-key Codex channel is not supported' : 'the channel has no key: sign in with ChatGPT first', 'key')
  const key = readCodexKey(channel.keys[0]!)
  if (!key) throw new BadRequestError('the channel\'s key is not a ChatGPT sign-in (JSON with access_token and account_id)', 'key')
  return key
}

/** Store a new key on the channel (sealed; every node's cache told through the channel write). */
export async function saveCodexKey(ports: Pick<CodexPorts, 'channels'>, id: number, key: CodexKey): Promise<void> {
  const saved = await ports.channels.update(id, {}, JSON.stringify(key))
  if (!saved) throw new NotFoundError(`channel ${id} not found`)
}

export interface RefreshOutcome {
  refreshed: boolean
  key: CodexKey
}

/**
 * Refresh the channel's tokens under its lease. `dueBy` (ms): only when the access token expires before then
 * (the scheduled refresh); without it, now. The key is read again inside the lease, so a refresh another node
 * made meanwhile is seen and not repeated with a spent refresh token. Another holder: 409 `codex_refresh_running`.
 */
export async function refreshCodexChannel(ports: CodexPorts, id: number, dueBy?: number): Promise<RefreshOutcome> {
  codexChannel(ports, id)
  const lease = await ports.coord.tryAcquireLease(leaseName(id), LEASE_MS)
  if (!lease) throw new ConflictError('a refresh of this channel is already running', 'codex_refresh_running')
  try {
    await ports.channels.reload([id])
    const key = codexKeyOf(codexChannel(ports, id))
    const expiry = expiresAt(key)
    if (dueBy !== undefined && expiry !== undefined && expiry > dueBy) return { refreshed: false, key }
    const fresh = await refreshKey(ports.fetch, key, ports.now())
    await saveCodexKey(ports, id, fresh)
    return { refreshed: true, key: fresh }
  } finally {
    await lease.release()
  }
}

/** The scheduled refresh (new-api's: every 10 minutes, for tokens expiring within a day). */
export const REFRESH_EVERY_MS = 10 * 60_000
export const REFRESH_AHEAD_MS = 24 * 3_600_000

/**
 * One pass of the scheduled refresh: every Codex channel whose access token expires within REFRESH_AHEAD_MS,
 * each under its lease. A channel that cannot be refreshed is named in the result and left as it is (its calls
 * fail over; the channel test says why).
 */
export async function refreshDueCodexChannels(ports: CodexPorts): Promise<{ refreshed: number[]; failed: { id: number; message: string }[] }> {
  const refreshed: number[] = []
  const failed: { id: number; message: string }[] = []
  const dueBy = ports.now() + REFRESH_AHEAD_MS
  for (const channel of ports.channels.all()) {
    if (channel.type !== CODEX_TYPE || channel.keys.length !== 1) continue
    const key = readCodexKey(channel.keys[0]!)
    const expiry = key && expiresAt(key)
    if (!key?.refresh_token || expiry === undefined || expiry > dueBy) continue
    try {
      if ((await refreshCodexChannel(ports, channel.id, dueBy)).refreshed) refreshed.push(channel.id)
    } catch (error) {
      failed.push({ id: channel.id, message: (error as Error).message })
    }
  }
  return { refreshed, failed }
}
