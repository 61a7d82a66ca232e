import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startTestApp, type TestApp } from '../helpers/test-app'
import { parseExposition } from './helpers'
import { REPO } from './process'

const dashboard = JSON.parse(await Bun.file(join(REPO, 'docs/grafana-dashboard.json')).text())
const exprs: string[] = dashboard.panels.flatMap((p: any) => (p.targets ?? []).map((t: any) => t.expr as string))
/** the queries as Prometheus would get them once Grafana filled in its variables */
const concrete = exprs.map((e) => e.replaceAll('$__rate_interval', '5m').replace(/"\$\w+"/g, '".*"'))

let app: TestApp
beforeAll(async () => {
  app = await startTestApp({ BACKUP_DIR: '' })
  app.deps.ops.backup = { lastSuccessAt: 0, failures: 0 }
})
afterAll(() => app.stop())

test('the Grafana dashboard asks only for series GET /metrics has', async () => {
  expect(exprs.length).toBeGreaterThan(15)
  const families = new Set(parseExposition(await (await app.fetch('/metrics')).text()).families.map((f) => f.name as string))
  const used = new Set(exprs.flatMap((e) => [...e.matchAll(/\b((?:tollgate|process)_[a-z_]+)/g)].map((m) => m[1]!.replace(/_(bucket|sum|count)$/, ''))))
  expect([...used].filter((name) => !families.has(name))).toEqual([])
  for (const panel of dashboard.panels) expect(panel.id).toBeNumber()
  expect(dashboard.__inputs[0].pluginId).toBe('prometheus')
})

test.skipIf(!Bun.which('promtool'))("every panel's query is valid PromQL (promtool check rules)", () => {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-grafana-'))
  try {
    const rules = `groups:\n  - name: dashboard\n    rules:\n${concrete.map((e, i) => `      - record: tollgate:panel_${i}\n        expr: ${JSON.stringify(e)}`).join('\n')}\n`
    writeFileSync(join(dir, 'rules.yml'), rules)
    const run = Bun.spawnSync([Bun.which('promtool')!, 'check', 'rules', join(dir, 'rules.yml')], { stdout: 'pipe', stderr: 'pipe' })
    expect([run.exitCode, `${run.stdout}${run.stderr}`.includes('SUCCESS')]).toEqual([0, true])
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
