import { afterAll, beforeAll, expect, test } from 'bun:test'
import { createApp } from '../../src/app'
import { sessionCookieOf } from '../../src/plugins/session'
import { startTestApp, type TestApp } from '../helpers/test-app'

/**
 * Elysia compiles each route's handler from what its hooks read: a `derive` anywhere in the app that names `cookie`
 * makes every route parse the Cookie header (an await) on every request, and a hook that passes the context on
 * whole makes it copy every header into an object. The relay's routes read neither; these guard their hot path.
 */
let env: TestApp
let routes: { method: string; path: string; compile(): unknown }[]

beforeAll(async () => {
  env = await startTestApp()
  routes = (createApp(env.deps) as unknown as { routes: typeof routes }).routes
})
afterAll(() => env.stop())

// per request, not per WebSocket session: the realtime upgrade runs once for a whole session, in Elysia's ws handler
const RELAY_PREFIXES = ['/v1/', '/v1beta/', '/mj/', '/:mode/mj/', '/suno/', '/kling/']
const relayRoutes = () => routes.filter((r) => r.method !== 'WS' && (RELAY_PREFIXES.some((prefix) => r.path.startsWith(prefix)) || r.path === '/v1beta'))

test('no relay route parses cookies or copies its headers', () => {
  expect(relayRoutes().length).toBeGreaterThan(10)
  // the task routes too (Midjourney, Suno, Kling's own), submits included
  expect(relayRoutes().some((r) => r.path === '/:mode/mj/submit/imagine')).toBe(true)
  for (const route of relayRoutes()) {
    const source = String(route.compile())
    if (source.includes('parseCookie')) throw new Error(`${route.path} parses cookies`)
    if (source.includes('headers.toJSON()')) throw new Error(`${route.path} copies its headers into an object`)
  }
})

test('the routes that do read the session cookie still parse it (the check above can fail)', () => {
  const login = routes.find((r) => r.method === 'POST' && r.path === '/api/user/login')!
  expect(String(login.compile())).toContain('parseCookie')
})

test('sessionCookieOf reads the session cookie among others, quoted or encoded, and nothing else', () => {
  const headers = (cookie?: string) => new Headers(cookie === undefined ? {} : { cookie })
  expect(sessionCookieOf(headers())).toBeUndefined()
  expect(sessionCookieOf(headers('a=1; b=2'))).toBeUndefined()
  expect(sessionCookieOf(headers('a=1; tollgate_session=eyJ.abc.def; b=2'))).toBe('eyJ.abc.def')
  expect(sessionCookieOf(headers('tollgate_session="eyJ.x.y"'))).toBe('eyJ.x.y')
  expect(sessionCookieOf(headers('tollgate_session=a%2Eb'))).toBe('a.b')
  expect(sessionCookieOf(headers('tollgate_session_old=x; tollgate_session=y'))).toBe('y')
  expect(sessionCookieOf(headers('tollgate_session=%E0%A4%A'))).toBe('%E0%A4%A') // not decodable: as sent
})
