import { afterAll, beforeAll, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildBinary } from '../e2e/harness'
import { VERSION } from '../../src/version'
import { serve, tollgate } from './process'

/** The same command line from the compiled binary as from `bun src/index.ts` (cli.test.ts runs that one). */
let binary: string
const dir = mkdtempSync(join(tmpdir(), 'tollgate-binary-cli-'))
beforeAll(async () => {
  binary = await buildBinary()
}, 120_000)
afterAll(() => rmSync(dir, { recursive: true, force: true }))

test('./dist/tollgate: version, help, exit codes', async () => {
  const run = (args: string[]) => tollgate(args, { cmd: [binary] })
  expect((await run(['version'])).stdout.trim()).toBe(VERSION)
  expect((await run(['--version'])).stdout.trim()).toBe(VERSION)
  const help = await run(['--help'])
  expect(help.code).toBe(0)
  expect(help.stdout).toContain('reset-password')
  expect((await run(['doctor', '--help'])).code).toBe(0)
  expect((await run(['nope'])).code).toBe(2)
})

test('./dist/tollgate: serve, health, backup while serving, restore, doctor, SIGTERM exits 0', async () => {
  const data = join(dir, 'data')
  const server = await serve(data, { ROOT_PASSWORD: 'binary-root-password' }, [binary])
  try {
    expect((await tollgate(['health', '--url', server.url], { cmd: [binary] })).code).toBe(0)
    expect((await tollgate(['health', '--ready', '--url', server.url], { cmd: [binary] })).code).toBe(0)
    const metrics = await (await fetch(`${server.url}/metrics`)).text()
    expect(metrics).toContain('# TYPE tollgate_relay_requests_total counter')
    const docs = await fetch(`${server.url}/api/docs/swagger-ui-bundle.js`)
    expect(docs.status).toBe(200)
    const backup = await tollgate(['backup', join(dir, 'b.db'), '--data-dir', data], { cmd: [binary] })
    expect([backup.code, backup.stderr]).toEqual([0, ''])
  } finally {
    expect(await server.stop()).toBe(0)
  }
  const db = new Database(join(dir, 'b.db'), { readonly: true })
  expect(db.query('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' })
  db.close()
  const restored = await tollgate(['restore', join(dir, 'b.db'), '--data-dir', join(dir, 'restored')], { cmd: [binary] })
  expect([restored.code, restored.stderr]).toEqual([0, ''])
  const doctor = await tollgate(['doctor', '--data-dir', join(dir, 'restored')], { cmd: [binary], env: { PORT: '0' } })
  expect([doctor.code, doctor.stdout.split('\n').filter((l) => l.startsWith('FAIL'))]).toEqual([0, []])
  // nothing answers any more
  expect((await tollgate(['health', '--url', 'http://127.0.0.1:9', '--timeout', '1'], { cmd: [binary] })).code).toBe(1)
}, 60_000)
