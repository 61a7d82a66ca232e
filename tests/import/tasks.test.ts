/**
 * What new-api's gateway for agents and media carries over through `tollgate import`: the prices by prompt length
 * (`ModelTierPricing`, checked model by model as PUT /api/option/ checks them: a bad model is dropped and named).
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstreams'
import type { TestApp } from '../helpers/test-app'
import { writeSqliteSource } from './fixtures/load'
import { newApiRows } from './fixtures/rows'
import { NEW_API_TABLES } from './fixtures/schema'
import { importInto, startImported, tempDir } from './helpers'

const TIERS = {
  'claude-sonnet-4-5': { enabled: true, basis: 'prompt_tokens', tiers: [{ min_tokens: 0, max_tokens: 200_000, input_price: 3, completion_price: 15, cache_read_price: 0.3 }, { min_tokens: 200_000, input_price: 6, completion_price: 22.5 }] },
  // a gap between the tiers: refused by the API, so dropped here
  'gemini-2.5-pro': { enabled: true, basis: 'prompt_tokens', tiers: [{ min_tokens: 0, max_tokens: 100, input_price: 1.25, completion_price: 10 }, { min_tokens: 200, input_price: 2.5, completion_price: 15 }] },
}

let upstream: FakeUpstream
let dir: string
let app: TestApp
let report: any
beforeAll(async () => {
  upstream = await startFakeUpstream({ keys: [] })
  const fixture = await newApiRows(upstream.url)
  dir = tempDir('tasks')
  const source = join(dir, 'new-api.db')
  writeSqliteSource(source, NEW_API_TABLES, {
    ...fixture.rows,
    options: [...fixture.rows.options!, { key: 'ModelTierPricing', value: JSON.stringify(TIERS) }],
  })
  const result = await importInto(join(dir, 'data'), source)
  expect(result.exitCode).toBe(0)
  report = result.report
  app = await startImported(join(dir, 'data'))
}, 60_000)
afterAll(async () => {
  await app?.close()
  await upstream.stop()
  rmSync(dir, { recursive: true, force: true })
})

test('ModelTierPricing comes over model by model: a valid one kept as written, one with a gap dropped and named', () => {
  expect(app.deps.options.get('ModelTierPricing')).toEqual({ 'claude-sonnet-4-5': TIERS['claude-sonnet-4-5'] })
  const issue = report.issues.find((i: any) => i.field === 'ModelTierPricing')
  expect(issue).toMatchObject({ table: 'options', value: 'gemini-2.5-pro' })
  expect(issue.note).toContain('contiguous')
  expect(JSON.stringify(report.issues)).not.toContain('"ModelTierPricing","note":"no counterpart')
})
