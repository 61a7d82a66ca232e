import type { TSchema } from '@sinclair/typebox'
import { InvalidWireError, isRecord, UnsupportedFeatureError, type Sampling } from '../ir/index.ts'
import { compiledSchema } from './schema-check'

/** `check(body)` throws `InvalidWireError` naming the first bad field. The schema is compiled on first use. */
export function validator(schema: TSchema): (body: unknown) => void {
  let compiled: ReturnType<typeof compiledSchema> | undefined
  return (body) => {
    compiled ??= compiledSchema(schema)
    if (compiled.Check(body)) return
    const first = compiled.Errors(body).First()
    const path = first?.path ? first.path.replace(/^\//, '').replace(/\//g, '.') : undefined
    throw new InvalidWireError(first ? `${path || 'body'}: ${first.message}` : 'invalid request body', path || undefined)
  }
}

export function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined
}

export function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined
}

export function arr(v: unknown): unknown[] {
  return Array.isArray(v) ? v : []
}

export function rec(v: unknown): Record<string, unknown> {
  return isRecord(v) ? v : {}
}

/** An SSE event's JSON payload as a record, or undefined when it is not JSON (stream decoders skip those). */
export function eventJson(ev: { data: string }): Record<string, unknown> | undefined {
  try {
    return rec(JSON.parse(ev.data))
  } catch {
    return undefined
  }
}

/** Parses `data:<media>;base64,<data>` URLs. */
export function parseDataUrl(url: string): { mediaType: string; data: string } | undefined {
  const m = /^data:([^;,]+)?(?:;[^;,]*)*;base64,(.*)$/s.exec(url)
  if (!m) return undefined
  return { mediaType: m[1] ?? 'application/octet-stream', data: m[2] ?? '' }
}

/**
 * Whose storage a media URL points into, when only that vendor can read it: Gemini Files API and Cloud Storage
 * URIs need Google credentials, OpenAI `file-…` ids need OpenAI's. Other vendors cannot fetch them, so encoders
 * refuse them naming the field instead of letting the upstream fail opaquely. Plain http(s) and data URLs: undefined.
 */
function privateMediaOwner(url: string): 'gemini' | 'openai' | undefined {
  if (url.startsWith('gs://') || /^https:\/\/generativelanguage\.googleapis\.com\/[^?#]*files\//.test(url)) return 'gemini'
  if (/^file[-_][A-Za-z0-9]/.test(url)) return 'openai'
  return undefined
}

/** Throws naming `where` when `url` is another vendor's private media (see privateMediaOwner); `own` is the target's. */
export function refusePrivateMedia(url: string, where: string, target: string, own?: 'gemini' | 'openai'): void {
  const owner = privateMediaOwner(url)
  if (!owner || owner === own) return
  const what = owner === 'gemini' ? 'a Gemini file URI' : 'an OpenAI file id'
  throw new UnsupportedFeatureError(`${where}: ${url} is ${what}, which a ${target} upstream cannot fetch; send the media inline (base64) or by a public URL`, where, target)
}

/** The image type a URL's file extension names (Gemini fileData wants a mimeType), if any. */
export function imageTypeFromUrl(url: string): string | undefined {
  const ext = /\.([a-z0-9]+)(?:[?#]|$)/i.exec(url)?.[1]?.toLowerCase()
  const types: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', webp: 'image/webp', gif: 'image/gif', heic: 'image/heic', heif: 'image/heif' }
  return ext ? types[ext] : undefined
}

export function dataUrl(mediaType: string | undefined, data: string): string {
  return `data:${mediaType ?? 'application/octet-stream'};base64,${data}`
}

/** Parses a JSON body that may arrive as text. */
export function jsonBody(body: unknown): unknown {
  if (typeof body === 'string') {
    try {
      return JSON.parse(body)
    } catch {
      return body
    }
  }
  return body
}

/** Opaque items that only record what a hosted tool did; dropping them loses nothing the model needs. */
const DROPPABLE_ITEMS = new Set(['web_search_call', 'file_search_call', 'item_reference', 'image_generation_call', 'code_interpreter_call'])

/** Handles an opaque item of another protocol: drop (warning) when harmless, else refuse naming the field. */
export function foreignOpaque(m: { protocol: string; type: string; path?: string }, at: string, target: string, warnings: string[]): void {
  const where = m.path ?? at
  if (DROPPABLE_ITEMS.has(m.type)) {
    warnings.push(`${where}: ${m.protocol} "${m.type}" item dropped`)
    return
  }
  throw new UnsupportedFeatureError(`${where}: a ${m.protocol} "${m.type}" item cannot be sent to a ${target} upstream`, where, target)
}

type NumericSampling = 'temperature' | 'topP' | 'topK' | 'seed' | 'presencePenalty' | 'frequencyPenalty'

/** The wire field names one protocol uses for the neutral sampling settings. */
export type SamplingFields = Partial<Record<NumericSampling | 'stop', string>>

/** Sampling settings from a wire object, by that protocol's field names; a stop list keeps only strings. */
export function decodeSampling(src: Record<string, unknown>, fields: SamplingFields): Sampling {
  const sampling: Sampling = {}
  for (const key of ['temperature', 'topP', 'topK', 'seed', 'presencePenalty', 'frequencyPenalty'] as const) {
    const field = fields[key]
    const value = field === undefined ? undefined : num(src[field])
    if (value !== undefined) sampling[key] = value
  }
  const stop = fields.stop === undefined ? undefined : src[fields.stop]
  if (Array.isArray(stop) && stop.length) sampling.stop = stop.filter((x): x is string => typeof x === 'string')
  return sampling
}
