import { Role } from '../../../src/db/repos/user-roles'
import { sha256 } from '../../../src/crypto/sha256'
import type { TestApp } from '../../helpers/test-app'

/** A user with the given role and an access token; returns the headers that authenticate as them. */
export async function userHeaders(app: TestApp, role: number = Role.admin): Promise<Record<string, string>> {
  const name = `u${role}_${crypto.randomUUID().slice(0, 8)}`
  const user = await app.deps.repos.users.insert({ username: name, password: 'unused-hash', role })
  const secret = `tok-${crypto.randomUUID()}`
  await app.deps.repos.users.update(user.id, { accessToken: sha256(secret) })
  return { authorization: `Bearer ${secret}` }
}

/** A fake upstream on 127.0.0.1:0 that records requests and answers with `handler`. */
export function fakeUpstream(handler: (req: Request, url: URL) => Response | Promise<Response>) {
  const seen: { method: string; path: string; headers: Headers; body: string }[] = []
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(req) {
      const url = new URL(req.url)
      seen.push({ method: req.method, path: url.pathname + url.search, headers: req.headers, body: await req.clone().text() })
      return handler(req, url)
    },
  })
  return { url: `http://127.0.0.1:${server.port}`, seen, stop: () => server.stop(true) }
}
