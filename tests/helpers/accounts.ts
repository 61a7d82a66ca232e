import type { NewUser, UserRow } from '../../src/db/repos'
import { SESSION_COOKIE } from '../../src/plugins/session'
import { call, ROOT_PASSWORD, type TestApp } from './test-app'

export const USER_PASSWORD = 'user-password-123'

/** Insert a user straight into the database (password USER_PASSWORD unless given; cheap argon2id for speed). */
export function addUser(app: TestApp, user: Omit<NewUser, 'password'>, password = USER_PASSWORD): Promise<UserRow> {
  const hash = Bun.password.hashSync(password, { algorithm: 'argon2id', memoryCost: 4096, timeCost: 1 })
  return app.deps.repos.users.insert({ ...user, password: hash })
}

/** Log in over HTTP and return the `name=value` cookie pair to send back. */
export async function login(app: TestApp, username = 'root', password = username === 'root' ? ROOT_PASSWORD : USER_PASSWORD): Promise<string> {
  const res = await call(app, 'POST', '/api/user/login', { username, password })
  if (res.status !== 200) throw new Error(`login as ${username} failed: ${res.status} ${JSON.stringify(res.body)}`)
  return sessionCookie(res.headers)
}

export function sessionCookie(headers: Headers): string {
  const pair = headers.getSetCookie().find((c) => c.startsWith(`${SESSION_COOKIE}=`))?.split(';')[0]
  if (!pair) throw new Error('no session cookie was set')
  return pair
}

export const as = (cookie: string) => ({ cookie })
