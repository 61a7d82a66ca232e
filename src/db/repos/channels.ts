import type { AbilityRow, ChannelPatch, ChannelRow, NewChannel, Page } from './rows'

export type { AbilityRow, ChannelPatch, ChannelRow, NewChannel } from './rows'

export const ChannelStatus = { enabled: 1, manuallyDisabled: 2, autoDisabled: 3 } as const

export interface ChannelFilter {
  type?: number
  status?: number
  tag?: string
  group?: string
  /** channels whose model list names exactly this model */
  model?: string
  /** status 2 or 3 (manually or automatically disabled) */
  disabled?: boolean
  keyword?: string
}

/** `a, b,,a` → `['a', 'b']`: trimmed, non-empty, first occurrence kept. */
export function splitList(text: string): string[] {
  return [...new Set(text.split(',').map((s) => s.trim()).filter(Boolean))]
}

/** The routing rows one channel implies: every (group, model) pair, enabled only when the channel is. */
export function abilitiesOf(row: ChannelRow): AbilityRow[] {
  const rows: AbilityRow[] = []
  for (const group of splitList(row.group)) {
    for (const model of splitList(row.models)) {
      rows.push({
        group,
        model,
        channelId: row.id,
        enabled: row.status === ChannelStatus.enabled,
        priority: row.priority,
        weight: row.weight,
        tag: row.tag,
      })
    }
  }
  return rows
}

/**
 * Channels and their abilities (the routing rows). Every write rewrites the touched channels' abilities in
 * the same transaction, so the routing index in the database never drifts from the channels. The relay reads
 * channels from the routing cache (relay/routing/channel-store.ts), never from here per request.
 */
export interface ChannelRepo {
  all(): Promise<ChannelRow[]>
  findById(id: number): Promise<ChannelRow | undefined>
  /** Newest first. */
  list(filter: ChannelFilter, offset: number, limit: number): Promise<Page<ChannelRow>>
  /** The distinct non-empty tags, sorted (the console's tag filter). */
  tags(): Promise<string[]>
  /** The routing rows, of one channel or of all. */
  abilities(channelId?: number): Promise<AbilityRow[]>

  /** Insert channels with their abilities, in one transaction; the rows in the order given. */
  insert(rows: NewChannel[]): Promise<ChannelRow[]>
  /** Update one channel (an empty patch reads it). */
  update(id: number, patch: ChannelPatch): Promise<ChannelRow | undefined>
  /** Set fields on several channels; returns the rows written. */
  updateMany(ids: number[], patch: ChannelPatch): Promise<ChannelRow[]>
  /** Set fields on every channel with the tag; returns the rows written. */
  updateByTag(tag: string, patch: ChannelPatch): Promise<ChannelRow[]>
  /** Set the status of the given channels; returns only the rows whose status actually changed. */
  setStatus(ids: number[], status: number): Promise<ChannelRow[]>
  setStatusByTag(tag: string, status: number): Promise<ChannelRow[]>
  /** Delete channels (their abilities go with them); returns the ids removed. */
  delete(ids: number[]): Promise<number[]>
  /** Test bookkeeping: no routing field changes, so abilities stay as they are. */
  recordTest(id: number, responseTimeMs: number, testTime: number, testError: string): Promise<void>
  /** The balance the vendor's billing endpoint reported (US$), and when: bookkeeping, abilities untouched. */
  recordBalance(id: number, balance: number, at: number): Promise<void>
}
