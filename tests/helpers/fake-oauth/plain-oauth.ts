/**
 * A plain OAuth 2 provider for sign-in tests (RFC 6749 code flow with PKCE, RFC 7636), shaped by a `FakeShape`:
 * Discord's and LinuxDO's documented paths and payloads (discord.ts, linuxdo.ts), reached through
 * PROVIDER_ENDPOINTS. The authorize page answers at once with a redirect carrying code and state (the account is
 * `account`, set by the test); the token endpoint takes a form, the client's credentials by HTTP Basic or in the
 * body (both are allowed by RFC 6749 §2.3.1), the code once, the redirect URI of the authorization and the PKCE
 * verifier, answering RFC 6749 §5.2's 400 `{error}` when wrong; the user endpoint answers for the bearer token.
 */
import { createHash } from 'node:crypto'

export interface FakeShape<A> {
  authorizePath: string
  tokenPath: string
  userPath: string
  /** the user endpoint's JSON for an account */
  user(account: A): unknown
  /** the user endpoint's answer to a missing or unknown token */
  unauthorized: unknown
}

export interface FakeOAuth<A> {
  url: string
  account: A
  /** token requests seen: their form fields and how the client authenticated */
  tokenRequests: (Record<string, string> & { auth: 'basic' | 'post' })[]
  stop(): void
}

interface Grant<A> {
  account: A
  redirectUri: string
  challenge: string
}

function clientCredentials(request: Request, form: Record<string, string>): { id: string; secret: string; auth: 'basic' | 'post' } {
  const basic = /^Basic (.+)$/i.exec(request.headers.get('authorization') ?? '')?.[1]
  if (basic) {
    const [id = '', secret = ''] = Buffer.from(basic, 'base64').toString().split(':').map(decodeURIComponent)
    return { id, secret, auth: 'basic' }
  }
  return { id: form.client_id ?? '', secret: form.client_secret ?? '', auth: 'post' }
}

export function startFakeOAuth<A>(shape: FakeShape<A>, client: { id: string; secret: string }, account: A): FakeOAuth<A> {
  const grants = new Map<string, Grant<A>>()
  const tokens = new Map<string, A>()
  const fake: FakeOAuth<A> = { url: '', account, tokenRequests: [], stop: () => server.stop(true) }
  const error = (code: string) => Response.json({ error: code, error_description: code }, { status: 400 })
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(request) {
      const url = new URL(request.url)
      if (url.pathname === shape.authorizePath) {
        const q = url.searchParams
        if (q.get('client_id') !== client.id) return new Response('unknown client', { status: 400 })
        if (q.get('response_type') !== 'code' || q.get('code_challenge_method') !== 'S256' || !q.get('code_challenge')) return new Response('code flow with PKCE S256 expected', { status: 400 })
        const code = crypto.randomUUID()
        grants.set(code, { account: structuredClone(fake.account), redirectUri: q.get('redirect_uri')!, challenge: q.get('code_challenge')! })
        const back = new URL(q.get('redirect_uri')!)
        back.searchParams.set('code', code)
        back.searchParams.set('state', q.get('state')!)
        return Response.redirect(back.href, 302)
      }
      if (url.pathname === shape.tokenPath && request.method === 'POST') {
        if (!(request.headers.get('content-type') ?? '').startsWith('application/x-www-form-urlencoded')) return error('invalid_request')
        const form = Object.fromEntries(new URLSearchParams(await request.text()))
        const credentials = clientCredentials(request, form)
        fake.tokenRequests.push({ ...form, auth: credentials.auth })
        if (credentials.id !== client.id || credentials.secret !== client.secret) return Response.json({ error: 'invalid_client' }, { status: 401 })
        const grant = grants.get(form.code ?? '')
        grants.delete(form.code ?? '')
        if (form.grant_type !== 'authorization_code') return error('unsupported_grant_type')
        if (!grant || grant.redirectUri !== form.redirect_uri) return error('invalid_grant')
        if (createHash('sha256').update(form.code_verifier ?? '').digest('base64url') !== grant.challenge) return error('invalid_grant')
        const token = crypto.randomUUID().replaceAll('-', '')
        tokens.set(token, grant.account)
        return Response.json({ access_token: token, token_type: 'Bearer', expires_in: 604800, refresh_token: crypto.randomUUID(), scope: 'identify email' })
      }
      if (url.pathname === shape.userPath) {
        const found = tokens.get((request.headers.get('authorization') ?? '').replace(/^Bearer /i, ''))
        if (found === undefined) return Response.json(shape.unauthorized, { status: 401 })
        return Response.json(shape.user(found))
      }
      return new Response('not found', { status: 404 })
    },
  })
  fake.url = `http://127.0.0.1:${server.port}`
  return fake
}
