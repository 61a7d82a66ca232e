import { GatewayError } from '../errors'
import type { OutboundFetch } from '../outbound/fetch'
import { boundedText } from '../outbound/bounded-body'
import { accountOf, type CodexKey } from '../providers/codex/key'

/**
 * The ChatGPT sign-in Codex CLI does (and new-api's service/codex_oauth.go after it): OAuth 2.0 with PKCE against
 * auth.openai.com as Codex's public client. Its redirect URI is Codex's local listener, which nothing answers on a
 * server: the admin's browser lands on `http://localhost:1455/auth/callback?code=…&state=…` and the admin pastes
 * that address back (new-api's "complete" input). PROVIDER_ENDPOINTS may send auth.openai.com elsewhere.
 */
const CODEX_OAUTH = {
  clientId: 'app_EMoamEEZ73f0CkXaXp7hrann',
  authorizeUrl: 'https://auth.openai.com/oauth/authorize',
  tokenUrl: 'https://auth.openai.com/oauth/token',
  redirectUri: 'http://localhost:1455/auth/callback',
  scope: 'openid profile email offline_access',
} as const

const TOKEN_TIMEOUT_MS = 15_000
const TOKEN_BODY_BYTES = 64 * 1024

/** A new flow's state, PKCE verifier and the address to send the admin to. */
export function newAuthorization(): { state: string; verifier: string; url: URL } {
  const state = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('hex')
  const verifier = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url')
  const challenge = new Bun.CryptoHasher('sha256').update(verifier).digest('base64url')
  const url = new URL(CODEX_OAUTH.authorizeUrl)
  const query: Record<string, string> = {
    response_type: 'code',
    client_id: CODEX_OAUTH.clientId,
    redirect_uri: CODEX_OAUTH.redirectUri,
    scope: CODEX_OAUTH.scope,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state,
    id_token_add_organizations: 'true',
    codex_cli_simplified_flow: 'true',
    originator: 'codex_cli_rs',
  }
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value)
  return { state, verifier, url }
}

/**
 * What the admin pasted: the callback address (`…?code=…&state=…`), its query alone, or `code#state` as Codex's
 * own page shows it. A bare code has no state and is refused by the caller.
 */
export function parseCallbackInput(input: string): { code: string; state: string } {
  const text = input.trim()
  if (text.includes('#') && !text.includes('code=')) {
    const [code = '', state = ''] = text.split('#', 2)
    return { code: code.trim(), state: state.trim() }
  }
  if (text.includes('code=')) {
    let params: URLSearchParams
    try {
      params = new URL(text).searchParams
    } catch {
      params = new URLSearchParams(text.replace(/^[?#]/, ''))
    }
    return { code: params.get('code')?.trim() ?? '', state: params.get('state')?.trim() ?? '' }
  }
  return { code: text, state: '' }
}

interface TokenAnswer {
  access_token: string
  refresh_token: string
  id_token?: string
  expires_in: number
}

/** The token endpoint's answer to a form; a refusal or a malformed answer is a 502 `codex_oauth_failed` (nothing of it quoted). */
async function tokenCall(dial: OutboundFetch, form: Record<string, string>): Promise<TokenAnswer> {
  let response: Response
  try {
    response = await dial(CODEX_OAUTH.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams(form).toString(),
      signal: AbortSignal.timeout(TOKEN_TIMEOUT_MS),
    })
  } catch (error) {
    throw new GatewayError(502, 'codex_oauth_failed', `auth.openai.com could not be reached: ${(error as Error).message}`)
  }
  const text = (await boundedText(response, TOKEN_BODY_BYTES).catch(() => '')) ?? ''
  if (!response.ok) throw new GatewayError(502, 'codex_oauth_failed', `auth.openai.com refused the ${form.grant_type === 'refresh_token' ? 'refresh' : 'code'} (status ${response.status})`)
  let body: Partial<TokenAnswer>
  try {
    body = JSON.parse(text) as Partial<TokenAnswer>
  } catch {
    throw new GatewayError(502, 'codex_oauth_failed', 'auth.openai.com answered with something other than JSON')
  }
  const access = typeof body.access_token === 'string' ? body.access_token.trim() : ''
  const refresh = typeof body.refresh_token === 'string' ? body.refresh_token.trim() : ''
  if (!access || !refresh || typeof body.expires_in !== 'number' || !(body.expires_in > 0)) {
    throw new GatewayError(502, 'codex_oauth_failed', 'auth.openai.com answered without access_token, refresh_token or expires_in')
  }
  return { access_token: access, refresh_token: refresh, expires_in: body.expires_in, ...(typeof body.id_token === 'string' ? { id_token: body.id_token } : {}) }
}

/** The key a pasted code makes (account and e-mail from the access token); refused without a ChatGPT account id. */
export async function exchangeCode(fetch: OutboundFetch, code: string, verifier: string, now: number): Promise<CodexKey> {
  const answer = await tokenCall(fetch, { grant_type: 'authorization_code', client_id: CODEX_OAUTH.clientId, code, code_verifier: verifier, redirect_uri: CODEX_OAUTH.redirectUri })
  const { accountId, email } = accountOf(answer.access_token)
  if (!accountId) throw new GatewayError(502, 'codex_no_account', 'the access token names no ChatGPT account (chatgpt_account_id)')
  return keyFrom(answer, { access_token: '', account_id: accountId, ...(email ? { email } : {}), type: 'codex' }, now)
}

/** The key with new tokens from its refresh token (the refresh token rotates: the old one is spent). */
export async function refreshKey(fetch: OutboundFetch, key: CodexKey, now: number): Promise<CodexKey> {
  if (!key.refresh_token) throw new GatewayError(400, 'codex_no_refresh_token', 'the key has no refresh_token: sign in with ChatGPT again')
  const answer = await tokenCall(fetch, { grant_type: 'refresh_token', client_id: CODEX_OAUTH.clientId, refresh_token: key.refresh_token })
  const { accountId, email } = accountOf(answer.access_token)
  return keyFrom(answer, { ...key, account_id: key.account_id || accountId || '', ...(key.email || !email ? {} : { email }) }, now)
}

function keyFrom(answer: TokenAnswer, base: CodexKey, now: number): CodexKey {
  return {
    ...base,
    ...(answer.id_token ? { id_token: answer.id_token } : {}),
    access_token: answer.access_token,
    refresh_token: answer.refresh_token,
    last_refresh: new Date(now).toISOString(),
    expired: new Date(now + answer.expires_in * 1000).toISOString(),
    type: base.type || 'codex',
  }
}
