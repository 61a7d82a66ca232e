/**
 * A Tollgate for the metering benchmark: a fresh data dir, one user with a big balance, one limited API key,
 * one channel to the bench fake upstream. Prints `{"url","key"}` once it listens; on SIGTERM it stops the
 * way the real binary does (queued log rows written) and prints `{"logs","requests","quotaUsed"}`.
 *
 *   LOG_CONSUME=true|false UPSTREAM=http://127.0.0.1:N bun bench/metering/gateway.ts
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createApp } from '../../src/app'
import { loadConfig } from '../../src/config'
import { closeDatabase, openDatabase } from '../../src/db/sqlite/client'
import { migrate } from '../../src/db/sqlite/migrate'
import { createSqliteRepos } from '../../src/db/sqlite/repos'
import { createDeps } from '../../src/deps'
import { bootstrapRoot } from '../../src/modules/setup/bootstrap'
import { createToken } from '../../src/services/tokens/create-token'

const MODEL = 'bench-d0'
const dataDir = mkdtempSync(join(tmpdir(), 'tollgate-bench-metering-'))
const config = loadConfig({ ROOT_PASSWORD: 'bench-root-password', DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1' })
const db = openDatabase(config.sqlitePath)
migrate(db)
const deps = await createDeps(config, createSqliteRepos(db, { writerThread: config.writerThread }))
await bootstrapRoot(deps)
await deps.options.set('LogConsumeEnabled', process.env.LOG_CONSUME !== 'false')
await deps.options.set('ModelRatio', { [MODEL]: 1.25 })
await deps.options.set('CompletionRatio', { [MODEL]: 4 })
const user = await deps.repos.users.insert({ username: 'bench', password: 'x', quota: 1e15 })
const { key } = await createToken(deps, { user, fields: { name: 'bench', unlimited_quota: false, remain_quota: 1e14 } })
await deps.routing.channels.create([{ name: 'bench', type: 1, baseUrl: process.env.UPSTREAM!, keyText: 'sk-bench', models: MODEL, group: 'default' }])
const app = createApp(deps).listen({ port: 0, hostname: '127.0.0.1' })
console.log(JSON.stringify({ url: `http://127.0.0.1:${app.server!.port}`, key, model: MODEL }))

process.on('SIGTERM', async () => {
  await app.stop()
  await deps.metering.stop()
  const logs = await deps.repos.logs.count({}) // consume rows, plus error rows of requests the load generator cut off at its end
  deps.repos.users.forget(user.id)
  const row = (await deps.repos.users.findById(user.id))!
  console.log(JSON.stringify({ logs, requests: row.requestCount, quotaUsed: row.usedQuota }))
  closeDatabase(db)
  rmSync(dataDir, { recursive: true, force: true })
  process.exit(0)
})
