/**
 * A real OpenID Provider on loopback: panva's certified `oidc-provider`, with its development login and consent
 * pages (any login name is an account; its e-mail is `<login>@example.com`, verified unless the login starts
 * with `unverified`). PKCE is required, as a strict provider would.
 */
import Provider from 'oidc-provider'
import type { Server } from 'node:http'
import { freePort } from '../server-process'

export interface TestProvider {
  issuer: string
  stop(): Promise<void>
}

export async function startOidcProvider(client: { id: string; secret: string; redirectUri: string }): Promise<TestProvider> {
  const port = await freePort()
  const issuer = `http://127.0.0.1:${port}`
  const provider = new Provider(issuer, {
    clients: [{ client_id: client.id, client_secret: client.secret, redirect_uris: [client.redirectUri], grant_types: ['authorization_code'], response_types: ['code'] }],
    pkce: { required: () => true },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'preferred_username'] },
    cookies: { keys: ['tollgate-test-cookie-key'] },
    features: { devInteractions: { enabled: true } },
    async findAccount(_ctx: unknown, sub: string) {
      return {
        accountId: sub,
        claims: async () => ({ sub, preferred_username: sub, name: `OIDC ${sub}`, email: `${sub}@example.com`, email_verified: !sub.startsWith('unverified') }),
      }
    },
  })
  const server: Server = provider.listen(port, '127.0.0.1')
  await new Promise<void>((resolve) => server.once('listening', () => resolve()))
  return { issuer, stop: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}
