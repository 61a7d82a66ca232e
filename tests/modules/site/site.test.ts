import { afterAll, beforeAll, expect, test } from 'bun:test'
import { as, login } from '../../helpers/accounts'
import { call, startTestApp, type TestApp } from '../../helpers/test-app'

let app: TestApp
let root: Record<string, string>
beforeAll(async () => {
  app = await startTestApp()
  root = as(await login(app))
})
afterAll(() => app.stop())

const setOption = (key: string, value: unknown) => call(app, 'PUT', '/api/option/', { key, value }, root)
const ROUTES = {
  '/api/notice': 'Notice',
  '/api/about': 'About',
  '/api/home_page_content': 'HomePageContent',
  '/api/user-agreement': 'legal.user_agreement',
  '/api/privacy-policy': 'legal.privacy_policy',
}

test("new-api's public text routes answer the option as a string in the envelope, logged out; '' when unset", async () => {
  for (const path of Object.keys(ROUTES)) {
    const res = await call(app, 'GET', path)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ success: true, message: '', data: '' })
  }
  for (const [path, key] of Object.entries(ROUTES)) {
    const text = `# ${key}\n\n<img src=x onerror=alert(1)> 中文`
    expect((await setOption(key, text)).status).toBe(200)
    // stored as written: the browser sanitizes when it renders (an import keeps the operator's text)
    expect((await call(app, 'GET', path)).body).toEqual({ success: true, message: '', data: text })
    expect(app.db.$client.query('SELECT value FROM options WHERE key = ?').get(key)).toEqual({ value: text })
  }
})

test('/api/status names the logo, the footer and which legal pages exist', async () => {
  await setOption('legal.user_agreement', '')
  await setOption('legal.privacy_policy', 'Policy')
  await setOption('Footer', '© Example')
  const status = (await call(app, 'GET', '/api/status')).body.data
  expect(status).toMatchObject({ logo: '', footer_html: '© Example', user_agreement_enabled: false, privacy_policy_enabled: true })
})

test('texts over 100 000 characters and logos that are not https or an image data: URL are 400, nothing stored', async () => {
  const before = (await call(app, 'GET', '/api/notice')).body.data
  const long = await setOption('Notice', 'x'.repeat(100_001))
  expect(long.status).toBe(400)
  expect((await call(app, 'GET', '/api/notice')).body.data).toBe(before)
  for (const bad of ['http://example.com/logo.png', 'javascript:alert(1)', 'data:text/html;base64,PHNjcmlwdD4=', 'https://user:pw@example.com/l.png', '/logo.png']) {
    const res = await setOption('Logo', bad)
    expect(res.status).toBe(400)
    expect(res.body.message).toContain('Logo')
  }
  expect(app.deps.options.get('Logo')).toBe('')
})

test('/favicon.ico: the built-in mark, then the logo as a data: URL (bytes, sandboxed) or an https URL (a redirect)', async () => {
  await setOption('Logo', '')
  const mark = await app.fetch('/favicon.ico')
  expect(mark.status).toBe(200)
  expect(mark.headers.get('content-type')).toBe('image/svg+xml')
  expect(await mark.text()).toStartWith('<svg')

  const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3])
  expect((await setOption('Logo', `data:image/png;base64,${png.toString('base64')}`)).status).toBe(200)
  const bytes = await app.fetch('/favicon.ico')
  expect(bytes.headers.get('content-type')).toBe('image/png')
  expect(bytes.headers.get('content-security-policy')).toContain('sandbox')
  expect(Buffer.from(await bytes.arrayBuffer())).toEqual(png)

  expect((await setOption('Logo', 'https://cdn.example.com/brand/logo.png')).status).toBe(200)
  const moved = await app.fetch('/favicon.ico', { redirect: 'manual' })
  expect(moved.status).toBe(302)
  expect(moved.headers.get('location')).toBe('https://cdn.example.com/brand/logo.png')
  // the console's page may show that logo, and nothing else from there
  const csp = (await app.fetch('/')).headers.get('content-security-policy')!
  expect(csp).toContain("img-src 'self' data: https://cdn.example.com;")
  expect(csp).not.toContain('frame-src')
})

test('a home page or About that is one https URL opens frame-src to its origin only', async () => {
  await setOption('HomePageContent', 'https://home.example.org/landing')
  await setOption('About', 'see https://not-a-page.example.net')
  const csp = (await app.fetch('/')).headers.get('content-security-policy')!
  expect(csp).toContain('frame-src https://home.example.org;')
  expect(csp).not.toContain('not-a-page')
  expect(csp).toContain("frame-ancestors 'none'")
})
