/**
 * A small GitHub for sign-in tests, reached through PROVIDER_ENDPOINTS `{"github": <url>}` (github.com and
 * api.github.com alike). It follows GitHub's documented OAuth web flow: /login/oauth/authorize answers with a
 * redirect to redirect_uri carrying code and state (the signed-in account is `account`, set by the test);
 * POST /login/oauth/access_token (form, Accept: application/json) checks client id and secret, the code (once),
 * the redirect_uri given at authorize and the PKCE verifier (S256), answering GitHub's 200 `{error}` when wrong;
 * GET /user and /user/emails answer for the bearer token.
 */
import { createHash } from 'node:crypto'

export interface GitHubAccount {
  id: number
  login: string
  name?: string
  email?: string
  verified?: boolean
}

interface Grant {
  account: GitHubAccount
  redirectUri: string
  challenge: string
  clientId: string
}

export interface FakeGitHub {
  url: string
  account: GitHubAccount
  /** token requests seen (their form fields) */
  tokenRequests: Record<string, string>[]
  stop(): void
}

export function startFakeGitHub(client: { id: string; secret: string }, account: GitHubAccount): FakeGitHub {
  const grants = new Map<string, Grant>()
  const tokens = new Map<string, GitHubAccount>()
  const tokenRequests: Record<string, string>[] = []
  const fake: FakeGitHub = { url: '', account, tokenRequests, stop: () => server.stop(true) }
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(request) {
      const url = new URL(request.url)
      if (url.pathname === '/login/oauth/authorize') {
        const q = url.searchParams
        if (q.get('client_id') !== client.id) return new Response('unknown client', { status: 404 })
        if (q.get('code_challenge_method') !== 'S256' || !q.get('code_challenge')) return new Response('PKCE S256 expected', { status: 400 })
        const code = crypto.randomUUID()
        grants.set(code, { account: { ...fake.account }, redirectUri: q.get('redirect_uri')!, challenge: q.get('code_challenge')!, clientId: q.get('client_id')! })
        const back = new URL(q.get('redirect_uri')!)
        back.searchParams.set('code', code)
        back.searchParams.set('state', q.get('state')!)
        return Response.redirect(back.href, 302)
      }
      if (url.pathname === '/login/oauth/access_token' && request.method === 'POST') {
        const form = Object.fromEntries(new URLSearchParams(await request.text()))
        tokenRequests.push(form)
        const grant = grants.get(form.code ?? '')
        grants.delete(form.code ?? '')
        const error = (e: string) => Response.json({ error: e, error_description: e })
        if (form.client_id !== client.id || form.client_secret !== client.secret) return error('incorrect_client_credentials')
        if (!grant) return error('bad_verification_code')
        if (grant.redirectUri !== form.redirect_uri) return error('redirect_uri_mismatch')
        const challenge = createHash('sha256').update(form.code_verifier ?? '').digest('base64url')
        if (challenge !== grant.challenge) return error('bad_verification_code')
        const token = `gho_${crypto.randomUUID().replaceAll('-', '')}`
        tokens.set(token, grant.account)
        return Response.json({ access_token: token, token_type: 'bearer', scope: 'read:user,user:email' })
      }
      const account = tokens.get((request.headers.get('authorization') ?? '').replace(/^Bearer /, ''))
      if (url.pathname === '/user' || url.pathname === '/user/emails') {
        if (!account) return Response.json({ message: 'Bad credentials' }, { status: 401 })
        if (!request.headers.get('user-agent')) return new Response('a User-Agent is required', { status: 403 })
        if (url.pathname === '/user') return Response.json({ id: account.id, login: account.login, name: account.name ?? null, email: null })
        return Response.json(account.email ? [{ email: account.email, primary: true, verified: account.verified ?? true, visibility: 'private' }] : [])
      }
      return new Response('not found', { status: 404 })
    },
  })
  fake.url = `http://127.0.0.1:${server.port}`
  return fake
}
