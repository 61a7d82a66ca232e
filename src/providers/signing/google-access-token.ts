/**
 * OAuth access tokens for Google service accounts (Vertex AI channels): minted by posting a signed JWT assertion
 * to the account's token_uri, kept per account until 5 minutes before they expire, one exchange shared by every
 * caller that asks while it runs. The private key is imported once per account. Errors never carry the key, the
 * assertion or a token: a refused exchange says what the token endpoint answered, with anything secret masked.
 */
import { OutboundRefused } from '../../outbound/fetch'
import { type ServiceAccount, importPrivateKey, serviceAccountOf, signAssertion } from './google-service-account'

type FetchLike = (url: string, init: RequestInit) => Promise<Response>

export interface TokenSourceOptions {
  /** clock in ms since the epoch (default Date.now); the JWT's iat and the cache's expiry both read it */
  now?: () => number
  /** a token is replaced this long before it expires (default 5 minutes) */
  refreshBeforeMs?: number
  /** after a failed exchange, callers get the same error without a new exchange for this long (default 5 s) */
  failureCooldownMs?: number
  /** one exchange gives up after this long (default 10 s) */
  timeoutMs?: number
  /** accounts remembered at most (default 1000); the oldest is forgotten first */
  maxAccounts?: number
}

export interface TokenSource {
  /**
   * A valid access token for the account (a parsed account or the channel's key JSON). A new one is minted through
   * `fetch`: the caller's outbound guard, so the account's token_uri is held to the caller's address policy.
   */
  accessTokenFor(account: ServiceAccount | string, fetch: FetchLike): Promise<string>
  /** Forget the account's token (Vertex answered 401 with it): the next call mints a new one. */
  invalidate(account: ServiceAccount | string): void
}

/** The token endpoint could not be reached or refused the assertion. `status` is its HTTP status, 0 when unreachable. */
export class TokenExchangeError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Google's `error` code (`invalid_grant`, `invalid_scope` …) when it sent one */
    readonly code?: string,
    /** the outbound guard refused the token endpoint: nothing was sent, so no cooldown is owed */
    readonly refused = false,
  ) {
    super(message)
  }
}

const GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:jwt-bearer'
/** a token this close to expiry is not handed out even when its replacement failed */
const LAST_RESORT_MS = 60_000

interface Entry {
  key?: Promise<CryptoKey>
  token?: string
  /** ms, by the source's clock */
  expiresAt: number
  inflight?: Promise<string>
  failure?: { error: Error; until: number }
}

export function createTokenSource(options: TokenSourceOptions = {}): TokenSource {
  const now = options.now ?? Date.now
  const refreshBeforeMs = options.refreshBeforeMs ?? 5 * 60_000
  const cooldownMs = options.failureCooldownMs ?? 5_000
  const timeoutMs = options.timeoutMs ?? 10_000
  const maxAccounts = options.maxAccounts ?? 1000
  const entries = new Map<string, Entry>()

  const accountOf = (account: ServiceAccount | string) => (typeof account === 'string' ? serviceAccountOf(account) : account)
  const idOf = (a: ServiceAccount) => `${a.clientEmail}\n${a.tokenUri}\n${a.privateKey}`

  // the same account object (serviceAccountOf hands out one per key) skips building and hashing the id
  let known = new WeakMap<ServiceAccount, Entry>()

  function entryOf(account: ServiceAccount): Entry {
    const hit = known.get(account)
    if (hit) return hit
    const id = idOf(account)
    let entry = entries.get(id)
    if (!entry) {
      if (entries.size >= maxAccounts) {
        entries.delete(entries.keys().next().value!)
        known = new WeakMap() // may point at the forgotten entry
      }
      entry = { expiresAt: 0 }
      entries.set(id, entry)
    }
    known.set(account, entry)
    return entry
  }

  /** The old token while it still has a minute left: a failed refresh does not fail requests it could serve. */
  const lastResort = (entry: Entry, at: number) => (entry.token && at < entry.expiresAt - LAST_RESORT_MS ? entry.token : undefined)

  async function mint(entry: Entry, account: ServiceAccount, fetchImpl: FetchLike): Promise<string> {
    const key = await (entry.key ??= importPrivateKey(account))
    const issuedAt = now()
    const assertion = await signAssertion(account, key, Math.floor(issuedAt / 1000))
    const answer = await exchange(fetchImpl, account, assertion, timeoutMs)
    entry.token = answer.token
    entry.expiresAt = issuedAt + answer.expiresIn * 1000
    entry.failure = undefined
    return answer.token
  }

  return {
    accessTokenFor(input, fetchImpl) {
      let account: ServiceAccount
      try {
        account = accountOf(input)
      } catch (error) {
        return Promise.reject(error)
      }
      const entry = entryOf(account)
      const at = now()
      if (entry.token && at < entry.expiresAt - refreshBeforeMs) return Promise.resolve(entry.token)
      if (entry.failure && at < entry.failure.until) {
        const old = lastResort(entry, at)
        return old ? Promise.resolve(old) : Promise.reject(entry.failure.error)
      }
      return (entry.inflight ??= mint(entry, account, fetchImpl)
        .catch((error: Error) => {
          if (!(error instanceof TokenExchangeError && error.refused)) entry.failure = { error, until: now() + cooldownMs }
          const old = lastResort(entry, now())
          if (old) return old
          throw error
        })
        .finally(() => {
          entry.inflight = undefined
        }))
    },

    invalidate(input) {
      const entry = entries.get(idOf(accountOf(input)))
      if (entry) {
        entry.token = undefined
        entry.expiresAt = 0
      }
    },
  }
}

/** POST the assertion; the token and its lifetime in seconds, or TokenExchangeError. */
async function exchange(fetchImpl: FetchLike, account: ServiceAccount, assertion: string, timeoutMs: number) {
  const where = `the token endpoint ${account.tokenUri} (for ${account.clientEmail})`
  let response: Response
  let text: string
  try {
    response = await fetchImpl(account.tokenUri, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({ grant_type: GRANT_TYPE, assertion }).toString(),
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    })
    text = await response.text()
  } catch (error) {
    if (error instanceof OutboundRefused) throw new TokenExchangeError(0, `refused ${where}: ${mask(error.message, [assertion])}`, undefined, true)
    const reason = (error as Error)?.name === 'TimeoutError' ? `no answer in ${timeoutMs} ms` : mask(String((error as Error)?.message ?? error), [assertion])
    throw new TokenExchangeError(0, `could not reach ${where}: ${reason}`)
  }
  let body: Record<string, unknown> | undefined
  try {
    const value: unknown = JSON.parse(text)
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) body = value as Record<string, unknown>
  } catch {
    body = undefined
  }
  const token = body?.access_token
  if (response.ok && typeof token === 'string' && token !== '') {
    const expiresIn = Number(body?.expires_in)
    return { token, expiresIn: Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn : 3600 }
  }
  const code = typeof body?.error === 'string' ? body.error : undefined
  const said = code
    ? `${code}${typeof body?.error_description === 'string' ? `: ${body.error_description}` : ''}`
    : response.ok ? 'no access_token in its answer' : text.trim() || '(empty body)'
  throw new TokenExchangeError(response.status, `${where} answered ${response.status}: ${mask(said, [assertion])}`, code)
}

/**
 * What may be shown of a token endpoint's answer: known secrets, anything shaped like a JWT, a Google access token
 * or a PEM key replaced, at most 300 characters.
 */
export function mask(text: string, secrets: string[] = []): string {
  let out = text
  for (const secret of secrets) if (secret.length >= 8) out = out.split(secret).join('***')
  out = out
    .replace(/-----BEGIN [A-Z ]+-----[\s\S]*?(-----END [A-Z ]+-----|$)/g, '[private key]')
    .replace(/eyJ[\w-]*\.[\w-]+\.[\w-]*/g, '***')
    .replace(/\bya29\.[\w.-]+/g, 'ya29.***')
    .replace(/"(access_token|id_token|refresh_token|assertion|private_key)"\s*:\s*"[^"]*"/g, '"$1":"***"')
  return out.length > 300 ? out.slice(0, 300) + '…' : out
}
