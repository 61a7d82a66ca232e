// Types of the channel routes' answers (types only: nothing of the server is bundled).
import type { Channel } from '../../api/types'
import type { ChannelTestLine } from '../../../modules/channels/checks'
import type { KeyStateView } from '../../../modules/channels/view'

export type { Channel }
export type TestLine = ChannelTestLine
export type KeyState = KeyStateView

/** `GET /api/channel/models`: what each channel type speaks and offers. */
export interface TypeInfo {
  type: number
  name: string
  default_base_url: string
  key_required: boolean
  test_model: string
  models: string[]
  /** what the channel's `other` holds for this type, when it reads it */
  other_field?: { meaning: string; required: boolean; addressed?: boolean }
}

/** The list's filters as the URL and the API take them. */
export interface Filters {
  keyword: string
  type: string
  status: string
  tag: string
  model: string
}

export const NO_FILTERS: Filters = { keyword: '', type: '', status: '', tag: '', model: '' }
const FILTER_KEYS = Object.keys(NO_FILTERS) as (keyof Filters)[]

export const filtersFrom = (search: string): Filters => {
  const params = new URLSearchParams(search)
  return Object.fromEntries(FILTER_KEYS.map((key) => [key, params.get(key) ?? ''])) as unknown as Filters
}

export const hasFilters = (filters: Filters) => FILTER_KEYS.some((key) => filters[key] !== '')

/** Channel status: 1 enabled, 2 disabled by an admin, 3 disabled by the health check. */
export const ChannelStatus = { enabled: 1, manuallyDisabled: 2, autoDisabled: 3 } as const
