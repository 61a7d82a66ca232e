/**
 * Where a relay route accepts the key. `Authorization: Bearer` always works; the others only where the
 * matching protocol's clients send them.
 */
export type KeySource = 'x-api-key' | 'x-goog-api-key' | 'query-key' | 'mj-api-secret' | 'ws-protocol'

/** Anthropic clients send `x-api-key` (on /v1/messages* and /v1/models); Gemini clients `x-goog-api-key` or `?key=`. */
export const ANTHROPIC_KEY_SOURCES: readonly KeySource[] = ['x-api-key']
export const GEMINI_KEY_SOURCES: readonly KeySource[] = ['x-goog-api-key', 'query-key']
/** Midjourney clients (midjourney-proxy's) send the key in `mj-api-secret`. */
export const MIDJOURNEY_KEY_SOURCES: readonly KeySource[] = ['mj-api-secret']
/** Browsers cannot set headers on a WebSocket: OpenAI's realtime clients send the key as a subprotocol, `openai-insecure-api-key.<key>`. */
export const REALTIME_KEY_SOURCES: readonly KeySource[] = ['ws-protocol']
const KEY_PROTOCOL = 'openai-insecure-api-key.'

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
        : source === 'ws-protocol'
          ? protocolKey(headers.get('sec-websocket-protocol'))
          : headers.get(source)?.trim()
    if (value) return value
  }
  return undefined
}

function protocolKey(offered: string | null): string | undefined {
  if (!offered) return undefined
  for (const protocol of offered.split(',')) {
    const trimmed = protocol.trim()
    if (trimmed.startsWith(KEY_PROTOCOL)) return trimmed.slice(KEY_PROTOCOL.length) || undefined
  }
  return undefined
}

export function describeSources(sources: readonly KeySource[] = []): string {
  const names = ['Authorization: Bearer', ...sources.map((source) => (source === 'query-key' ? '?key=' : source === 'ws-protocol' ? `the ${KEY_PROTOCOL}<key> subprotocol` : source))]
  return names.join(', ')
}
