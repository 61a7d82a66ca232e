import { afterAll, beforeAll, expect, test } from 'bun:test'
import { Validator } from '@seriousme/openapi-schema-validator'
import { createApp } from '../../src/app'
import { startTestApp, type TestApp } from '../helpers/test-app'

let app: TestApp
let doc: any
beforeAll(async () => {
  app = await startTestApp()
  const response = await app.fetch('/api/openapi.json')
  expect(response.status).toBe(200)
  expect(response.headers.get('content-type')).toStartWith('application/json')
  doc = await response.json()
})
afterAll(() => app.stop())

/** Elysia's `:param` and the OpenAPI `{param}` name the same path */
const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}')

test('GET /api/openapi.json is a valid OpenAPI 3.1 document (checked against the OpenAPI 3.1 JSON schema)', async () => {
  expect(doc.openapi).toStartWith('3.1')
  const validator = new Validator()
  const result = await validator.validate(doc)
  expect(validator.version).toBe('3.1')
  expect(result.errors ?? []).toEqual([])
  expect(result.valid).toBe(true)
})

test('every route of the app is in the document, and nothing else', () => {
  // a WebSocket route is documented as the GET that upgrades
  const routes = createApp(app.deps).routes.map((r) => `${r.method === 'WS' ? 'get' : r.method.toLowerCase()} ${openApiPath(r.path)}`)
  const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, methods]) => Object.keys(methods).map((m) => `${m} ${path}`))
  expect(routes.filter((r) => !documented.includes(r))).toEqual([])
  expect(documented.filter((r) => !routes.includes(r))).toEqual([])
  // the relay routes and the operations endpoints among them
  for (const route of ['post /v1/chat/completions', 'post /v1/messages', 'post /v1/responses', 'post /v1beta/models/{model}', 'get /v1/models', 'get /metrics', 'get /healthz', 'get /readyz', 'post /pg/chat/completions']) {
    expect(documented).toContain(route)
  }
})

test('every request body is documented as JSON only, as the server takes it (tests/hardening/csrf.test.ts)', () => {
  const bodies = Object.entries(doc.paths as Record<string, Record<string, { requestBody?: { content: Record<string, unknown> } }>>).flatMap(([path, methods]) =>
    Object.entries(methods).flatMap(([method, op]) => (op.requestBody ? [{ route: `${method} ${path}`, types: Object.keys(op.requestBody.content) }] : [])),
  )
  expect(bodies.filter((b) => b.route.includes(' /api/')).length).toBeGreaterThan(20)
  expect(bodies.filter((b) => b.route.includes(' /api/') || b.route.includes(' /pg/')).filter((b) => b.types.join() !== 'application/json')).toEqual([])
})

test('each /api route says the role it needs, as the authorization matrix has it', () => {
  const op = (method: string, path: string) => doc.paths[path][method]
  for (const [path, methods] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
    for (const [method, operation] of Object.entries(methods)) {
      if (path.startsWith('/api')) expect([`${method} ${path}`, operation['x-tollgate-role']]).toEqual([`${method} ${path}`, expect.any(String)])
      expect(operation.summary).toBeString()
    }
  }
  expect(op('get', '/api/status')['x-tollgate-role']).toBe('public')
  expect(op('get', '/api/status').security).toEqual([])
  expect(op('get', '/api/user/self')['x-tollgate-role']).toBe('user')
  expect(op('get', '/api/channel/')['x-tollgate-role']).toBe('admin')
  expect(op('put', '/api/option/')['x-tollgate-role']).toBe('root')
  expect(op('put', '/api/option/').security).toEqual([{ session: [] }, { accessToken: [] }])
  expect(op('get', '/api/usage/token/')['x-tollgate-role']).toBe('api key')
  expect(op('get', '/api/channel/{id}').parameters).toContainEqual(expect.objectContaining({ name: 'id', in: 'path', required: true }))
  // request schemas come from the routes' TypeBox schemas
  expect(op('post', '/api/user/login').requestBody.content['application/json'].schema.properties).toHaveProperty('username')
  // the relay's bodies are each client protocol's own schema
  expect(op('post', '/v1/chat/completions').requestBody.content['application/json'].schema.properties).toHaveProperty('messages')
  expect(op('post', '/v1/messages').security).toEqual([{ apiKey: [] }, { anthropicKey: [] }])
  expect(doc.components.securitySchemes.session).toEqual(expect.objectContaining({ type: 'apiKey', in: 'cookie', name: 'tollgate_session' }))
})

test('/api/docs: a page whose every file comes from this instance (strict CSP, no CDN, no remote font)', async () => {
  const page = await app.fetch('/api/docs')
  expect(page.status).toBe(200)
  const csp = page.headers.get('content-security-policy')!
  expect(csp).toContain("default-src 'none'")
  expect(csp).toContain("script-src 'self'")
  expect(csp).toContain("connect-src 'self'")
  const html = await page.text()
  const urls = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!)
  expect(urls.length).toBeGreaterThanOrEqual(3)
  for (const url of urls) {
    expect(url).not.toMatch(/^(https?:)?\/\//)
    const file = await app.fetch(new URL(url, `${app.url}/api/docs`).pathname)
    expect([url, file.status]).toEqual([url, 200])
    const body = await file.text()
    // the reference page's own code and styles name no remote font or stylesheet
    expect(body).not.toMatch(/fonts\.googleapis|fonts\.gstatic|cdn\.jsdelivr|unpkg\.com/)
  }
  const init = await (await app.fetch('/api/docs/init.js')).text()
  expect(init).toContain('validatorUrl: null')
  expect((await app.fetch('/api/docs/nope.js')).status).toBe(404)
  // compressed like the console's assets
  const gz = await app.fetch('/api/docs/swagger-ui-bundle.js', { headers: { 'accept-encoding': 'gzip' } })
  expect(gz.headers.get('content-encoding')).toBe('gzip')
})
