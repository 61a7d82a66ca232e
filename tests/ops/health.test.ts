import { afterAll, beforeAll, expect, test } from 'bun:test'
import { startTestApp, type TestApp } from '../helpers/test-app'

let app: TestApp
beforeAll(async () => {
  app = await startTestApp()
})
afterAll(() => app.stop())

test('GET /healthz: 200 while the process serves', async () => {
  const response = await app.fetch('/healthz')
  expect(response.status).toBe(200)
  expect(await response.json()).toEqual({ status: 'ok' })
})

test('GET /readyz: 200 with the database reachable and every migration applied', async () => {
  const response = await app.fetch('/readyz')
  expect(response.status).toBe(200)
  expect(await response.json()).toEqual({ status: 'ready', checks: { database: 'ok', migrations: 'ok', draining: false } })
})

test('GET /readyz: 503 with a migration missing from the ledger, and 503 once draining', async () => {
  const sqlite = app.db.$client
  const last = sqlite.query<{ idx: number; tag: string; applied_at: number }, []>('SELECT * FROM __tollgate_migrations ORDER BY idx DESC LIMIT 1').get()!
  sqlite.query('DELETE FROM __tollgate_migrations WHERE idx = ?').run(last.idx)
  try {
    const response = await app.fetch('/readyz')
    expect(response.status).toBe(503)
    expect(((await response.json()) as any).checks.migrations).toBe(`not applied: ${last.tag}`)
  } finally {
    sqlite.query('INSERT INTO __tollgate_migrations (idx, tag, applied_at) VALUES (?, ?, ?)').run(last.idx, last.tag, last.applied_at)
  }
  expect((await app.fetch('/readyz')).status).toBe(200)
  app.deps.ops.draining = true
  try {
    const response = await app.fetch('/readyz')
    expect(response.status).toBe(503)
    expect(await response.json()).toEqual({ status: 'not ready', checks: { database: 'ok', migrations: 'ok', draining: true } })
    // alive all the same
    expect((await app.fetch('/healthz')).status).toBe(200)
  } finally {
    app.deps.ops.draining = false
  }
})

test('the operations paths are routes of their own: a path under them is a 404, never the console page', async () => {
  for (const path of ['/healthz/x', '/readyz/deeper', '/metrics/other']) {
    const response = await app.fetch(path)
    expect([path, response.status]).toEqual([path, 404])
    expect(await response.text()).not.toContain('<div id="app">')
  }
})
