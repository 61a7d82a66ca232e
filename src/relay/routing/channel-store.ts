import type { ChannelTestResult } from './channel-test'
import type { ChannelPatch, ChannelRepo, ChannelRow, NewChannel } from '../../db/repos'
import type { SecretBox } from '../../crypto/secret-box'
import { servesAnything } from '../../providers/registry'
import { toChannel, type Channel } from './channel'

/** A channel to insert, with its keys in plain text (sealed here before they reach the repo). */
export type NewChannelInput = Omit<NewChannel, 'key' | 'id'> & { keyText: string }

/**
 * Channels in memory, keys decrypted once at load, plus the routing index (group+model → enabled
 * channels). All channel writes go through here: seal keys → repo (channel + abilities in one
 * transaction) → patch the cache → rebuild the index. The relay never reads the database per request.
 */
export function createChannelStore(repo: ChannelRepo, box: SecretBox, hooks: { removed?(ids: number[]): void } = {}) {
  const byId = new Map<number, Channel>()
  let index = new Map<string, Channel[]>()
  let models = new Set<string>()

  function rebuildIndex(): void {
    const next = new Map<string, Channel[]>()
    const named = new Set<string>()
    for (const channel of byId.values()) {
      for (const model of channel.models) named.add(model)
      // a type the relay has nothing to send to is kept for the console but never routed
      if (channel.status !== 1 || !servesAnything(channel.provider)) continue
      for (const group of channel.groups) {
        for (const model of channel.models) {
          const key = indexKey(group, model)
          const list = next.get(key)
          if (list) list.push(channel)
          else next.set(key, [channel])
        }
      }
    }
    index = next
    models = named
  }

  /** Put written rows into the cache, reusing cached keys unless new key text is given. */
  function absorb(rows: ChannelRow[], keyText?: string): Channel[] {
    const out: Channel[] = []
    for (const row of rows) {
      const text = keyText ?? byId.get(row.id)?.keys.join('\n') ?? ''
      const channel = toChannel(row, text)
      if (channel) {
        byId.set(row.id, channel)
        out.push(channel)
      } else {
        byId.delete(row.id)
      }
    }
    rebuildIndex()
    return out
  }

  const keysOf = (row: ChannelRow): Promise<string> =>
    box.decrypt(row.key).catch((error: unknown) => {
      console.warn(`channel ${row.id}: cannot read its keys (${(error as Error).message}); it routes without keys`)
      return ''
    })

  async function load(): Promise<void> {
    const rows = await repo.all()
    const texts = await Promise.all(rows.map(keysOf))
    const before = new Set(byId.keys())
    byId.clear()
    rows.forEach((row, i) => {
      const channel = toChannel(row, texts[i]!)
      if (channel) byId.set(row.id, channel)
      before.delete(row.id)
    })
    rebuildIndex()
    if (before.size > 0) hooks.removed?.([...before])
  }

  /** Read the named channels again (all when none are named): another node wrote them. Gone ones leave the cache. */
  async function refresh(ids?: readonly number[]): Promise<void> {
    if (!ids) return load()
    const rows = await Promise.all(ids.map((id) => repo.findById(id)))
    const texts = await Promise.all(rows.map((row) => (row ? keysOf(row) : '')))
    const removed: number[] = []
    ids.forEach((id, i) => {
      const channel = rows[i] && toChannel(rows[i]!, texts[i]!)
      if (channel) byId.set(id, channel)
      else byId.delete(id)
      if (!rows[i]) removed.push(id)
    })
    rebuildIndex()
    if (removed.length > 0) hooks.removed?.(removed)
  }

  const ready = load()
  // reloads one at a time, so an older read never lands after a newer one
  let reloading: Promise<void> = ready.catch(() => {})

  return {
    /** Resolves once the channels are decrypted into memory (right after start). */
    ready,

    get: (id: number): Channel | undefined => byId.get(id),
    all: (): Channel[] => [...byId.values()],
    /** Whether some channel (enabled or not) lists `model`: the closed set metrics labels come from. */
    hasModel: (model: string): boolean => models.has(model),
    /** Enabled channels serving `model` in `group` (unordered). */
    candidates: (group: string, model: string): readonly Channel[] => index.get(indexKey(group, model)) ?? [],

    async create(inputs: NewChannelInput[]): Promise<Channel[]> {
      await ready
      const rows: NewChannel[] = await Promise.all(
        inputs.map(async ({ keyText, ...rest }) => ({ ...rest, key: await box.encrypt(keyText) })),
      )
      const written = await repo.insert(rows)
      return written.flatMap((row, i) => absorb([row], inputs[i]!.keyText))
    },

    /** Update one channel; `keyText` undefined keeps the stored keys. */
    async update(id: number, patch: ChannelPatch, keyText?: string): Promise<Channel | undefined> {
      await ready
      const sealed = keyText === undefined ? {} : { key: await box.encrypt(keyText) }
      const row = await repo.update(id, { ...patch, ...sealed })
      return row ? absorb([row], keyText)[0] : undefined
    },

    async updateMany(ids: number[], patch: ChannelPatch): Promise<Channel[]> {
      await ready
      return absorb(await repo.updateMany(ids, patch))
    },

    async updateByTag(tag: string, patch: ChannelPatch): Promise<Channel[]> {
      await ready
      return absorb(await repo.updateByTag(tag, patch))
    },

    /** Returns the channels whose status changed. */
    async setStatus(ids: number[], status: number): Promise<Channel[]> {
      await ready
      return absorb(await repo.setStatus(ids, status))
    },

    async setStatusByTag(tag: string, status: number): Promise<Channel[]> {
      await ready
      return absorb(await repo.setStatusByTag(tag, status))
    },

    /** Returns the ids deleted. */
    async remove(ids: number[]): Promise<number[]> {
      await ready
      const removed = await repo.delete(ids)
      for (const id of removed) byId.delete(id)
      rebuildIndex()
      hooks.removed?.(removed)
      return removed
    },

    /** Another node changed these channels (or, with no ids, some channels): read them again and rebuild the index. */
    reload(ids?: readonly number[]): Promise<void> {
      reloading = reloading.then(() => refresh(ids)).catch((error: unknown) => {
        console.error(`channels: cannot reload ${ids ? ids.join(', ') : 'all'} (${(error as Error).message})`)
      })
      return reloading
    },

    /** Bookkeeping of a channel test (response time, when, why it failed); never rejects: a failed write is logged. */
    async recordTest(id: number, result: Pick<ChannelTestResult, 'ok' | 'timeMs' | 'status' | 'message' | 'code' | 'request'>): Promise<void> {
      await repo.recordTest(id, Math.round(result.timeMs), Math.floor(Date.now() / 1000), testErrorText(result)).catch((error: unknown) => {
        console.error(`channel ${id}: test result not recorded (${(error as Error).message})`)
      })
    },

    /** The vendor account's balance and when it was read (bookkeeping: routing does not change). */
    recordBalance: (id: number, balance: number, at: number): Promise<void> => repo.recordBalance(id, balance, at),
  }
}

export type ChannelStore = ReturnType<typeof createChannelStore>

/** The stored failure of a test: what the console shows on the row ('' when it passed). Bounded: 1000 characters of message. */
function testErrorText(result: Pick<ChannelTestResult, 'ok' | 'status' | 'message' | 'code' | 'request'>): string {
  if (result.ok) return ''
  const { code = 'upstream_status', status, request } = result
  return JSON.stringify({ code, status, method: request?.method ?? '', url: request?.url ?? '', message: result.message.slice(0, 1000) })
}

function indexKey(group: string, model: string): string {
  return `${group}\n${model}`
}
