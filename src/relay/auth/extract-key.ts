/**
 * Where a relay route accepts the key. `Authorization: Bearer` always works; the others only where the
 * matching protocol's clients send them.
 */
export type KeySource = 'x-api-key' | 'x-goog-api-key' | 'query-key' | 'mj-api-secret'

/** Anthropic clients send `x-api-key` (on /v1/messages* and /v1/models); Gemini clients `x-goog-api-key` or `?key=`. */
export const ANTHROPIC_KEY_SOURCES: readonly KeySource[] = ['x-api-key']
export const GEMINI_KEY_SOURCES: readonly KeySource[] = ['x-goog-api-key', 'query-key']
/** Midjourney clients (midjourney-proxy's) send the key in `mj-api-secret`. */
export const MIDJOURNEY_KEY_SOURCES: readonly KeySource[] = ['mj-api-secret']

export interface KeyCarrier {
  headers: Headers
  /** the request URL, needed only for `query-key` */
  url?: string
  sources?: readonly KeySource[]
}

/** The raw key the client presented, or undefined. Bearer wins when several are present. */
export function extractKey({ headers, url, sources = [] }: KeyCarrier): string | undefined {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(headers.get('authorization') ?? '')?.[1]
  if (bearer) return bearer
  for (const source of sources) {
    const value =
      source === 'query-key'
        ? url
          ? new URL(url).searchParams.get('key')?.trim()
          : undefined
        : headers.get(source)?.trim()
    if (value) return value
  }
  return undefined
}

export function describeSources(sources: readonly KeySource[] = []): string {
  const names = ['Authorization: Bearer', ...sources.map((source) => (source === 'query-key' ? '?key=' : source))]
  return names.join(', ')
}
