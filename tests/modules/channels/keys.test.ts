import { afterAll, beforeAll, expect, test } from 'bun:test'
import { createSqliteRepos } from '../../../src/db/sqlite/repos'
import { createDeps } from '../../../src/deps'
import { createSecretBox } from '../../../src/crypto/secret-box'
import { call, startTestApp, type TestApp } from '../../helpers/test-app'
import { userHeaders } from './helpers'

let app: TestApp
let admin: Record<string, string>
beforeAll(async () => {
  app = await startTestApp()
  admin = await userHeaders(app)
})
afterAll(() => app.stop())

const SECRET_A = 'sk-live-AAAAAAAAAAAAAAAAAAAAAAAAAAAAwxyz'
const SECRET_B = 'sk-live-BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB'

test('keys are sealed in the database (v1:iv:ct, fresh IV per write) and never appear in responses', async () => {
  const created = await call(app, 'POST', '/api/channel/', { type: 1, name: 'secret', key: `${SECRET_A}\n${SECRET_B}`, models: 'gpt-4o' }, admin)
  const id = created.body.data.id
  expect(created.body.data.key_mask).toBe('sk-li…wxyz (2 keys)')

  const raw = app.db.$client.query<{ key: string }, [number]>('SELECT key FROM channels WHERE id = ?').get(id)!
  expect(raw.key).toMatch(/^v1:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+$/)
  expect(raw.key).not.toContain('sk-live')
  const whole = new TextDecoder().decode(app.db.$client.serialize())
  expect(whole).not.toContain(SECRET_A)

  // same plaintext written again: different ciphertext (random IV)
  await call(app, 'PUT', '/api/channel/', { id, key: `${SECRET_A}\n${SECRET_B}` }, admin)
  const again = app.db.$client.query<{ key: string }, [number]>('SELECT key FROM channels WHERE id = ?').get(id)!
  expect(again.key).not.toBe(raw.key)
  expect(await createSecretBox(app.deps.secrets.crypto).decrypt(again.key)).toBe(`${SECRET_A}\n${SECRET_B}`)

  const responses = [
    created,
    await call(app, 'GET', `/api/channel/${id}`, undefined, admin),
    await call(app, 'GET', '/api/channel/', undefined, admin),
    await call(app, 'GET', '/api/channel/search?keyword=secret', undefined, admin),
    await call(app, 'PUT', '/api/channel/', { id, name: 'secret2' }, admin),
  ]
  for (const res of responses) {
    const text = JSON.stringify(res.body)
    expect(text).not.toContain('live-AAAA')
    expect(text).not.toContain('live-BBBB')
    expect(text).not.toContain(raw.key.slice(3, 20))
    expect(text).not.toContain('"key":')
  }
})

test('keys are decrypted once into memory at start: a restart on the same file routes with them', async () => {
  await call(app, 'POST', '/api/channel/', { type: 14, name: 'restart', key: 'sk-ant-restart-1\nsk-ant-restart-2', models: 'claude-restart' }, admin)
  const again = await createDeps(app.deps.config, createSqliteRepos(app.db))
  const plan = await again.routing.planRoute('default', 'claude-restart')
  expect(plan).toHaveLength(1)
  expect(plan[0]!.channel.keys).toEqual(['sk-ant-restart-1', 'sk-ant-restart-2'])
})

test('with the wrong crypto secret the sealed keys do not open', async () => {
  const box = createSecretBox('another-secret-another-secret-another')
  const raw = app.db.$client.query<{ key: string }, []>('SELECT key FROM channels LIMIT 1').get()!
  await expect(box.decrypt(raw.key)).rejects.toThrow(/cannot decrypt/)
  await expect(box.decrypt('plaintext-key')).rejects.toThrow(/not a sealed secret/)
  const tampered = raw.key.slice(0, -4) + (raw.key.endsWith('AAAA') ? 'BBBB' : 'AAAA')
  await expect(createSecretBox(app.deps.secrets.crypto).decrypt(tampered)).rejects.toThrow()
})
