import { afterAll, beforeAll, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { PRESETS } from '../../src/providers/presets'
import { PROVIDERS } from '../../src/providers/registry'
import { createTestServiceAccount } from '../helpers/fake-upstreams/google-token'
import { call, startTestApp, type TestApp } from '../helpers/test-app'
import { userHeaders } from '../modules/channels/helpers'

/** docs/providers.md's `POST /api/channel/` examples, sent as they are written to a real gateway. */

const doc = readFileSync(join(import.meta.dir, '../../docs/providers.md'), 'utf8')
const bodies = [...doc.matchAll(/-d '(\{[^']*\})'/g)].map((m) => JSON.parse(m[1]!) as Record<string, any>)

let app: TestApp
let admin: Record<string, string>
beforeAll(async () => {
  app = await startTestApp()
  admin = await userHeaders(app)
})
afterAll(() => app.stop())

test('the doc has an example for every channel type and every preset', () => {
  const types = new Set(bodies.map((b) => b.type))
  for (const provider of PROVIDERS) expect(types.has(provider.type), `${provider.type} ${provider.name}`).toBe(true)
  const bases = new Set(bodies.map((b) => b.base_url))
  for (const preset of PRESETS) expect(bases.has(preset.baseUrl), preset.name).toBe(true)
  for (const provider of PROVIDERS) expect(doc, provider.name).toContain(provider.defaultBaseUrl || 'none')
})

test('every example creates the channel it describes', async () => {
  expect(bodies.length).toBeGreaterThan(25)
  // a Vertex key must be a service account whose private key imports: the doc's elided one is swapped for a real one
  const account = await createTestServiceAccount({ tokenUri: 'https://oauth2.googleapis.com/token' })
  for (const example of bodies) {
    const body = example.type === 41 && String(example.key).includes('…') ? { ...example, key: account.json } : example
    const res = await call(app, 'POST', '/api/channel/', body, admin)
    expect(res.status, `${body.name}: ${JSON.stringify(res.body)}`).toBe(200)
    const channel = res.body.data
    expect(channel).toMatchObject({ type: body.type, name: body.name, models: body.models })
    if (body.type === 39) {
      expect(channel.other).toBe('0123456789abcdef0123456789abcdef')
      expect(['', 'https://api.cloudflare.com']).toContain(channel.base_url)
    } else {
      expect(channel.base_url).toBe(body.base_url ?? '')
    }
  }
})
