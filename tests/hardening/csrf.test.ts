import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createApp } from '../../src/app'
import { ACTING_GETS } from '../../src/plugins/same-origin'
import { addUser, login } from '../helpers/accounts'
import { call, startTestApp, type TestApp } from '../helpers/test-app'
import { expectErrorShape, shapeOf } from './shapes'

/**
 * Issue #28, cross-origin writes: a page on another port of the same host (same site, so the SameSite=Strict
 * cookie goes along) could create channels, promote users and bill playground calls with form bodies. Now every
 * write to /api and /pg takes JSON only and comes from the instance's own origin (plugins/same-origin.ts).
 * The route table is enumerated: a write route added later is covered, or this file fails.
 */
const FOREIGN = 'http://127.0.0.1:3999'
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])
/** API-key routes, left alone: their credential is not ambient, and browser clients must keep working. */
// the relay's API-key routes: OpenAI's, Gemini's, and the task platforms' (Midjourney also under a mode: `/:mode/mj/…`)
const RELAY_PREFIXES = ['/v1/', '/v1beta/', '/mj/', '/:mode/mj/', '/suno/', '/kling/']
/** Payment providers' notifies and webhooks: posted by the provider's servers, checked by signature (tests/modules/payments). */
const PROVIDER_POSTS = ['/api/user/epay/notify', '/api/stripe/webhook', '/api/creem/webhook']

let app: TestApp
let root: string
let victimId: number

beforeAll(async () => {
  app = await startTestApp()
  root = await login(app)
  victimId = (await addUser(app, { username: 'victim', role: 1 } as never)).id
})
afterAll(() => app.stop())

const routes = () => createApp(app.deps).routes.map((r) => ({ method: r.method, path: r.path }))
const concrete = (path: string) => path.replace(/:[^/]+/g, '1').replace(/\*$/, 'x')
const sessionWrites = () => routes().filter((r) => WRITES.has(r.method) && !RELAY_PREFIXES.some((p) => r.path.startsWith(p)) && !PROVIDER_POSTS.includes(r.path))

async function send(method: string, path: string, headers: Record<string, string>, body?: string) {
  const res = await app.fetch(path, { method, headers: { cookie: root, ...headers }, body })
  const text = await res.text()
  return { status: res.status, body: JSON.parse(text), setCookie: res.headers.getSetCookie() }
}

async function expectRefused(method: string, path: string, headers: Record<string, string>, status: number, body?: string) {
  const res = await send(method, path, headers, body)
  expect({ route: `${method} ${path}`, status: res.status }).toEqual({ route: `${method} ${path}`, status })
  const message = expectErrorShape(shapeOf(path), res.body)
  if (status === 403) expect(message).toStartWith('cross_origin:')
  if (shapeOf(path) === 'openai') expect(res.body.error.code).toBe(status === 403 ? 'cross_origin' : 'unsupported_media_type')
  return res
}

const json = (extra: Record<string, string> = {}) => ({ 'content-type': 'application/json', ...extra })
const channel = { type: 1, name: 'takeover', key: 'sk-x', base_url: 'http://127.0.0.1:1', models: 'gpt-4o', priority: 999 }

describe('the route table', () => {
  test('every write route is a session route (/api, /pg) or a relay route: a new prefix must choose', () => {
    const writes = routes().filter((r) => WRITES.has(r.method))
    const stray = writes.filter((r) => !['/api/', '/pg/', ...RELAY_PREFIXES].some((p) => r.path.startsWith(p)))
    expect(stray).toEqual([])
    expect(sessionWrites().length).toBeGreaterThanOrEqual(28)
    expect(sessionWrites()).toContainEqual({ method: 'POST', path: '/pg/chat/completions' })
    // the exemption names routes that exist, and only those
    for (const path of PROVIDER_POSTS) expect(routes()).toContainEqual({ method: 'POST', path })
  })

  test('every session write refuses a foreign Origin, a same-site or cross-site page, and a form body', async () => {
    for (const { method, path } of sessionWrites()) {
      const at = concrete(path)
      await expectRefused(method, at, json({ origin: FOREIGN }), 403, '{}')
      await expectRefused(method, at, json({ 'sec-fetch-site': 'same-site' }), 403, '{}')
      await expectRefused(method, at, json({ 'sec-fetch-site': 'cross-site', origin: 'null' }), 403, '{}')
      await expectRefused(method, at, { 'content-type': 'application/x-www-form-urlencoded' }, 415, 'a=1')
      await expectRefused(method, at, { 'content-type': 'text/plain' }, 415, '{}')
    }
  })

  test('every GET that acts is a GET route and refuses other pages', async () => {
    const gets = new Set(routes().filter((r) => r.method === 'GET').map((r) => r.path))
    for (const path of ACTING_GETS) {
      expect(gets.has(path)).toBe(true)
      await expectRefused('GET', concrete(path), { 'sec-fetch-site': 'same-site' }, 403)
      await expectRefused('GET', `${concrete(path)}/`, { origin: FOREIGN }, 403)
    }
  })

  test('a host name of one to three characters (http://llm/…) is guarded too: Elysia reads its paths a segment late', async () => {
    for (const host of ['llm', 'a', '']) {
      await expectRefused('POST', '/api/channel/', json({ host, origin: FOREIGN }), 403, '{}')
      await expectRefused('GET', '/api/channel/test/1', { host, 'sec-fetch-site': 'same-site' }, 403)
    }
  })

  test('the relay routes are left alone: a foreign page with an API key is not refused for its origin', async () => {
    const res = await app.fetch('/v1/chat/completions', { method: 'POST', headers: json({ origin: FOREIGN, 'sec-fetch-site': 'cross-site' }), body: '{}' })
    expect(res.status).toBe(401)
    expect(await res.text()).not.toContain('cross_origin')
  })
})

describe('the attack from a page on another port', () => {
  const page = { origin: FOREIGN, 'sec-fetch-site': 'same-site' }

  test('form and text/plain bodies with the cookie change nothing', async () => {
    const channels = (await app.deps.repos.channels.list({}, 0, 100)).total
    await expectRefused('POST', '/api/channel/', { ...page, 'content-type': 'application/x-www-form-urlencoded' }, 403, new URLSearchParams(channel as never).toString())
    await expectRefused('POST', '/api/user/manage', { ...page, 'content-type': 'text/plain' }, 403, JSON.stringify({ id: victimId, action: 'promote' }))
    await expectRefused('POST', '/pg/chat/completions', { ...page, 'content-type': 'text/plain' }, 403, JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }))
    const form = new FormData()
    form.set('id', String(victimId))
    form.set('action', 'promote')
    const multipart = await app.fetch('/api/user/manage', { method: 'POST', headers: { cookie: root }, body: form })
    expect(multipart.status).toBe(415)
    expect((await app.deps.repos.channels.list({}, 0, 100)).total).toBe(channels)
    expect((await app.deps.repos.users.findById(victimId))!.role).toBe(1)
  })

  test('login from another page is refused and sets no cookie (login CSRF)', async () => {
    const res = await send('POST', '/api/user/login', json(page), JSON.stringify({ username: 'root', password: 'root-password-123' }))
    expect(res.status).toBe(403)
    expect(res.setCookie).toEqual([])
  })
})

describe('what still passes', () => {
  // a fresh session: on main's code the GETs above (logout) ended the first one
  beforeAll(async () => {
    root = await login(app)
  })

  test('no Origin and no Sec-Fetch-Site (curl, SDKs, scripts): JSON writes work', async () => {
    const created = await call(app, 'POST', '/api/channel/', { ...channel, name: 'by-curl' }, { cookie: root })
    expect(created.status).toBe(200)
    const id = created.body.data.id
    expect((await call(app, 'DELETE', `/api/channel/${id}`, undefined, { cookie: root })).status).toBe(200)
    expect((await call(app, 'POST', '/api/user/manage', { id: victimId, action: 'disable' }, { cookie: root, 'content-type': 'application/json; charset=utf-8' })).status).toBe(200)
  })

  test("the instance's own page: its Origin and Sec-Fetch-Site same-origin, or a typed URL (none)", async () => {
    const own = { origin: app.url, 'sec-fetch-site': 'same-origin' }
    expect((await call(app, 'POST', '/api/user/manage', { id: victimId, action: 'enable' }, { cookie: root, ...own })).status).toBe(200)
    expect((await call(app, 'GET', '/api/user/token', undefined, { cookie: root, 'sec-fetch-site': 'none' })).status).toBe(200)
  })

  test('ServerAddress adds its origin; the address the console was opened at keeps working', async () => {
    await app.deps.options.set('ServerAddress', 'https://gw.example.com')
    try {
      const edit = (origin: string) => call(app, 'POST', '/api/user/manage', { id: victimId, action: 'enable' }, { cookie: root, origin })
      expect((await edit('https://gw.example.com')).status).toBe(200)
      expect((await edit(app.url)).status).toBe(200)
      expect((await edit('http://gw.example.com')).status).toBe(403)
      expect((await edit('https://gw.example.com:8443')).status).toBe(403)
    } finally {
      await app.deps.options.set('ServerAddress', '')
    }
  })

  test('a management access token alone is not ambient: it passes whatever the Origin; with the cookie too, it does not', async () => {
    const token = (await call(app, 'GET', '/api/user/token', undefined, { cookie: root })).body.data as string
    const promote = { id: victimId, action: 'enable' }
    expect((await call(app, 'POST', '/api/user/manage', promote, { authorization: `Bearer ${token}`, origin: FOREIGN })).status).toBe(200)
    expect((await call(app, 'POST', '/api/user/manage', promote, { authorization: `Bearer ${token}`, origin: FOREIGN, cookie: root })).status).toBe(403)
    // the JSON rule is the API's contract for every caller
    expect((await app.fetch('/api/user/manage', { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-www-form-urlencoded' }, body: 'id=2&action=enable' })).status).toBe(415)
  })

  test('a body-less write may omit the content type; a body may not', async () => {
    const created = await call(app, 'POST', '/api/channel/', { ...channel, name: 'to-delete' }, { cookie: root })
    const bare = await app.fetch(`/api/channel/${created.body.data.id}`, { method: 'DELETE', headers: { cookie: root, origin: app.url } })
    expect(bare.status).toBe(200)
    const untyped = await app.fetch('/api/user/manage', { method: 'POST', headers: { cookie: root }, body: new Blob([JSON.stringify({ id: victimId, action: 'enable' })]) })
    expect(untyped.status).toBe(415)
  })
})

describe('behind a proxy', () => {
  test("TRUST_PROXY reads the scheme of the instance's origin from X-Forwarded-Proto; without it the header is ignored", async () => {
    const proxied = await startTestApp({ TRUST_PROXY: 'true' })
    try {
      const cookie = await login(proxied)
      const user = await addUser(proxied, { username: 'someone', role: 1 } as never)
      const write = (target: TestApp, session: string, id: number) =>
        call(target, 'POST', '/api/user/manage', { id, action: 'enable' }, { cookie: session, origin: `https://${new URL(target.url).host}`, 'x-forwarded-proto': 'https' })
      expect((await write(proxied, cookie, user.id)).status).toBe(200)
      expect((await write(app, root, victimId)).status).toBe(403)
    } finally {
      await proxied.stop()
    }
  })
})
