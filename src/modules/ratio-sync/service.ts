import { boundedText } from '../../outbound/bounded-body'
import type { Outbound } from '../../outbound/fetch'
import type { OptionStore } from '../../options/store'
import { BadRequestError } from '../../errors'
import { readSource, SYNC_FIELDS, type SyncField, type SyncTables, type SyncValue } from './sources'

/** The option each synced field is stored in (new-api's names on both sides). */
const OPTION_OF: Record<SyncField, string> = {
  model_ratio: 'ModelRatio',
  completion_ratio: 'CompletionRatio',
  cache_ratio: 'CacheRatio',
  create_cache_ratio: 'CreateCacheRatio',
  model_price: 'ModelPrice',
  model_tier_pricing: 'ModelTierPricing',
}
/** A source's document is read up to this size (models.dev's is about 1 MB). */
const MAX_SOURCE_BYTES = 10 << 20

export interface Upstream {
  name: string
  base_url: string
  endpoint?: string
}
interface SourceResult {
  name: string
  ok: boolean
  error?: string
  /** why the source could not be read, for the console to word: source_status (with `status`), source_not_json, source_too_large, source_unreachable */
  code?: SourceFailure
  status?: number
  models: number
}
type SourceFailure = 'source_status' | 'source_not_json' | 'source_too_large' | 'source_unreachable'
/** One field of one model that differs: its value here (absent: none), and each source's (null: the source has none). */
interface Difference {
  current?: SyncValue
  upstreams: Record<string, SyncValue | null>
  change: 'added' | 'changed' | 'removed'
}
export type Differences = Record<string, Partial<Record<SyncField, Difference>>>

type Deps = { outbound: Pick<Outbound, 'fetch'>; options: Pick<OptionStore, 'get'> }

/** The URL a source is read from: an endpoint that is a whole URL, else the base URL and the endpoint (`/api/pricing`). */
function urlOf(upstream: Upstream): string {
  const endpoint = upstream.endpoint?.trim() || '/api/pricing'
  if (/^https?:\/\//i.test(endpoint)) return endpoint
  return `${upstream.base_url.replace(/\/+$/, '')}${endpoint.startsWith('/') ? '' : '/'}${endpoint}`
}


/** One source read through the outbound guard: its tables, or why not. */
async function fetchSource(deps: Deps, upstream: Upstream, timeoutMs: number): Promise<{ tables?: SyncTables; error?: string; code?: SourceFailure; status?: number }> {
  try {
    const response = await deps.outbound.fetch(urlOf(upstream), { method: 'GET', headers: { accept: 'application/json' }, signal: AbortSignal.timeout(timeoutMs) })
    if (!response.ok) {
      await response.body?.cancel()
      return { error: `HTTP ${response.status}`, code: 'source_status', status: response.status }
    }
    const text = await boundedText(response, MAX_SOURCE_BYTES)
    if (text === undefined) return { error: `the document is larger than ${MAX_SOURCE_BYTES >> 20} MB`, code: 'source_too_large' }
    let body: unknown
    try {
      body = JSON.parse(text)
    } catch {
      return { error: 'not JSON', code: 'source_not_json' }
    }
    return { tables: readSource(body, deps.options.get<number>('QuotaPerUnit')) }
  } catch (error) {
    return { error: (error as Error).message.slice(0, 300), code: 'source_unreachable' }
  }
}

/** The option tables here, by synced field. */
function localTables(options: Deps['options']): SyncTables {
  return Object.fromEntries(SYNC_FIELDS.map((field) => [field, options.get<Record<string, SyncValue>>(OPTION_OF[field])])) as SyncTables
}

/** Numbers within rounding; tier configurations by their JSON with keys in order. */
const same = (a: SyncValue, b: SyncValue) => (typeof a === 'number' && typeof b === 'number' ? Math.abs(a - b) < 1e-9 : canonical(a) === canonical(b))
const canonical = (value: unknown): string =>
  Array.isArray(value) ? `[${value.map(canonical).join(',')}]` : typeof value === 'object' && value !== null ? `{${Object.keys(value).sort().map((k) => `${k}:${canonical((value as Record<string, unknown>)[k])}`).join(',')}}` : JSON.stringify(value)

/**
 * What the sources would change, per model and field: `added` (none here), `changed` (another value), `removed`
 * (a source prices the model but not this field). Models no source names are the operator's own: never listed.
 */
function diffTables(local: SyncTables, sources: { name: string; tables: SyncTables }[]): Differences {
  const differences: Differences = {}
  const named = new Map<string, Set<string>>() // model → the sources that price it
  for (const { name, tables } of sources) for (const field of SYNC_FIELDS) for (const model of Object.keys(tables[field])) (named.get(model) ?? named.set(model, new Set()).get(model)!).add(name)
  for (const [model, names] of named) {
    for (const field of SYNC_FIELDS) {
      const here: Record<string, SyncValue> = local[field]
      const current = Object.hasOwn(here, model) ? here[model] : undefined
      const upstreams: Record<string, SyncValue | null> = {}
      let differs = false
      for (const { name, tables } of sources) {
        if (!names.has(name)) continue
        const table: Record<string, SyncValue> = tables[field]
        // a source that publishes no tiers at all says nothing about a model's tiers
        if (field === 'model_tier_pricing' && Object.keys(table).length === 0) continue
        const value = Object.hasOwn(table, model) ? table[model]! : null
        upstreams[name] = value
        if (value === null ? current !== undefined : current === undefined || !same(value, current)) differs = true
      }
      if (!differs || Object.keys(upstreams).length === 0) continue
      const offered = Object.values(upstreams).some((value) => value !== null)
      const change = current === undefined ? 'added' : offered ? 'changed' : 'removed'
      if (change === 'added' && !offered) continue
      ;(differences[model] ??= {})[field] = { ...(current !== undefined ? { current } : {}), upstreams, change }
    }
  }
  return differences
}

/** Reads every source (at most 4 at once) and compares them with the prices here. Nothing is written. */
export async function fetchDifferences(deps: Deps, upstreams: Upstream[], timeoutMs: number) {
  const results: SourceResult[] = []
  const read: { name: string; tables: SyncTables }[] = []
  for (let i = 0; i < upstreams.length; i += 4) {
    const batch = upstreams.slice(i, i + 4)
    const answers = await Promise.all(batch.map((upstream) => fetchSource(deps, upstream, timeoutMs)))
    answers.forEach((answer, j) => {
      const { name } = batch[j]!
      const models = answer.tables ? new Set(SYNC_FIELDS.flatMap((field) => Object.keys(answer.tables![field]))).size : 0
      results.push({ name, ok: Boolean(answer.tables), ...(answer.error ? { error: answer.error, code: answer.code, ...(answer.status ? { status: answer.status } : {}) } : {}), models })
      if (answer.tables) read.push({ name, tables: answer.tables })
    })
  }
  return { results, differences: diffTables(localTables(deps.options), read) }
}

export interface Change {
  model: string
  field: SyncField
  /** null: remove the model from the field's table; tiers for model_tier_pricing, a number for the others */
  value: SyncValue | null
}

/** The option tables after the chosen changes; only those that change are returned (the caller writes them, each checked as the option is). */
export function appliedTables(options: Deps['options'], changes: Change[]): Record<string, Record<string, SyncValue>> {
  const next: Partial<Record<SyncField, Record<string, SyncValue>>> = {}
  for (const { model, field, value } of changes) {
    if (value !== null && (typeof value === 'number') !== (field !== 'model_tier_pricing')) {
      throw new BadRequestError(`"${model}": ${field} takes ${field === 'model_tier_pricing' ? 'a tier configuration' : 'a number'}`, 'value')
    }
    const table = (next[field] ??= { ...options.get<Record<string, SyncValue>>(OPTION_OF[field]) })
    if (value === null) delete table[model]
    else table[model] = value
  }
  return Object.fromEntries(Object.entries(next).map(([field, table]) => [OPTION_OF[field as SyncField], table]))
}
