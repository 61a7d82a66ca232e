/** What an error envelope's `data` may carry: a stable code the console words itself, and its facts. */
export interface ErrorFacts {
  code?: string
  /** seconds to wait, with a `*_rate_limited` or `busy` code */
  retry_after?: number
  /** the request field the refusal is about */
  param?: string
  /** an upstream's answer (0: none), the request sent and its host, with an `upstream_*` code */
  status?: number
  method?: string
  url?: string
  host?: string
}

/** The management API's envelope, unwrapped: data on success, an ApiError carrying the server's message otherwise. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly facts: ErrorFacts = {},
  ) {
    super(message)
  }
}

export type Query = Record<string, string | number | boolean | undefined | null>

/** Listeners told when any call answers 401, so the session can send the user to the login page. */
const unauthorizedListeners = new Set<() => void>()
export const onUnauthorized = (listener: () => void) => {
  unauthorizedListeners.add(listener)
  return () => unauthorizedListeners.delete(listener)
}

/** `path` with the query's non-empty values (also the href of a download link). */
export function withQuery(path: string, query?: Query): string {
  if (!query) return path
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value))
  }
  const text = params.toString()
  return text ? `${path}?${text}` : path
}

export function errorFacts(data: unknown): ErrorFacts {
  if (!data || typeof data !== 'object') return {}
  const fields = data as Record<string, unknown>
  const text = (key: string) => (typeof fields[key] === 'string' ? (fields[key] as string) : undefined)
  const number = (key: string) => (typeof fields[key] === 'number' ? (fields[key] as number) : undefined)
  const facts: ErrorFacts = { code: text('code'), retry_after: number('retry_after'), param: text('param'), status: number('status') ?? number('status_code'), method: text('method'), url: text('url'), host: text('host') }
  return Object.fromEntries(Object.entries(facts).filter(([, value]) => value !== undefined)) as ErrorFacts
}

async function call<T>(method: string, path: string, body?: unknown, query?: Query): Promise<T> {
  let response: Response
  try {
    response = await fetch(withQuery(path, query), {
      method,
      credentials: 'same-origin',
      headers: body === undefined ? undefined : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  } catch {
    throw new ApiError(0, 'network')
  }
  const envelope = (await response.json().catch(() => null)) as { success?: boolean; message?: string; data?: T } | null
  if (response.status === 401 && !path.startsWith('/api/user/login')) for (const listener of unauthorizedListeners) listener()
  if (!response.ok || !envelope?.success) throw new ApiError(response.status, envelope?.message || `HTTP ${response.status}`, errorFacts(envelope?.data))
  return envelope.data as T
}

export const api = {
  get: <T>(path: string, query?: Query) => call<T>('GET', path, undefined, query),
  post: <T>(path: string, body?: unknown) => call<T>('POST', path, body ?? {}),
  put: <T>(path: string, body: unknown, query?: Query) => call<T>('PUT', path, body, query),
  patch: <T>(path: string, body: unknown) => call<T>('PATCH', path, body),
  delete: <T>(path: string) => call<T>('DELETE', path),
}

/** A server-paged list as the API answers it. */
export interface Page<T> {
  items: T[]
  total: number
  page: number
  page_size: number
}
