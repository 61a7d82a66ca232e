import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createApp } from '../../src/app'
import { loadConfig, type Env } from '../../src/config'
import { openRepos } from '../../src/db'
import { closeDatabase, openDatabase, type Db } from '../../src/db/sqlite/client'
import { migrate } from '../../src/db/sqlite/migrate'
import { createSqliteRepos } from '../../src/db/sqlite/repos'
import { createDeps, type AppDeps } from '../../src/deps'
import { bootstrapRoot } from '../../src/modules/setup/bootstrap'
import type { RelayObserver } from '../../src/relay/types'
import { hasPostgres, sharedPostgres } from './pg-server'

export const ROOT_PASSWORD = 'root-password-123'

export interface TestApp {
  url: string
  deps: AppDeps
  /** the SQLite database under the repositories, for tests that look at rows and statements directly (throws on PostgreSQL) */
  db: Db
  dataDir: string
  /** the PostgreSQL database's URL when the app runs on one (a restart reopens it) */
  databaseUrl?: string
  /** fetch relative to the app's URL */
  fetch(path: string, init?: RequestInit): Promise<Response>
  /** stop the server and close the database, keeping the data dir (see `restartTestApp`) */
  close(): Promise<void>
  /** close, then delete the data dir */
  stop(): Promise<void>
}

/**
 * A real app on loopback with a real SQLite file in a temp dir (or in `dataDir`, reused as it is); root exists
 * unless `env.ROOT_PASSWORD` is ''. With a postgres:// `env.DATABASE_URL` (an empty database: see `appDialects`)
 * the app runs on PostgreSQL, opened as `openRepos` opens it; the secrets still live in the data dir.
 */
export async function startTestApp(env: Env = {}, settle?: RelayObserver, dataDir = mkdtempSync(join(tmpdir(), 'tollgate-test-'))): Promise<TestApp> {
  // the writer thread on whatever the machine: the suite runs the path a many-core server runs
  // LOG_LEVEL silent: no operations log lines on the test runner's stdout unless a test asks for them
  // TOLLGATE_TEST_POSTGRES=1: every app of the run on PostgreSQL (tests that read SQLite directly then fail, by name)
  if (process.env.TOLLGATE_TEST_POSTGRES === '1' && !env.DATABASE_URL && !env.SQLITE_PATH) env = { ...env, DATABASE_URL: await (await sharedPostgres()).createDatabase() }
  const config = loadConfig({ ROOT_PASSWORD, WRITER_THREAD: 'true', LOG_LEVEL: 'silent', ...env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1' })
  const postgres = config.database.kind === 'postgres'
  const db = postgres ? undefined : openDatabase(config.sqlitePath)
  if (db) migrate(db)
  // SQLite: the repositories on this test's own connection, which stays open after the metering's stop until `close`
  const repos = db ? createSqliteRepos(db, { writerThread: config.writerThread }) : await openRepos(config)
  const deps = await createDeps(config, repos)
  // Most tests route made-up model names: serve them free. Metering tests turn this off to see prices.
  await deps.options.set('SelfUseModeEnabled', true)
  await bootstrapRoot(deps)
  const app = createApp(deps, settle).listen({ port: 0, hostname: '127.0.0.1' })
  const url = `http://127.0.0.1:${app.server!.port}`
  const close = async () => {
    await app.stop(true)
    await deps.jobs.stop() // the jobs' leases given back while Redis is still connected
    await deps.metering.stop() // queued rows written, the writer thread ended
    await deps.coord.close()
    if (db) closeDatabase(db) // PostgreSQL: the metering's stop closed the repositories and their pool
  }
  return {
    url,
    deps,
    get db(): Db {
      if (!db) throw new Error('this test app runs on PostgreSQL: no SQLite handle (read through deps.repos)')
      return db
    },
    dataDir,
    databaseUrl: postgres ? config.database.url : undefined,
    fetch: (path, init) => fetch(url + path, init),
    close,
    async stop() {
      await close()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

/** Close the app and start a new process-like one on the same data dir: same database file, same secrets. */
export async function restartTestApp(app: TestApp, env: Env = {}): Promise<TestApp> {
  await app.close()
  return startTestApp(app.databaseUrl ? { DATABASE_URL: app.databaseUrl, ...env } : env, undefined, app.dataDir)
}

/** Where a test app can keep its data: `env` for `startTestApp` (a fresh PostgreSQL database per call). */
export interface AppDialect {
  name: 'sqlite' | 'postgres'
  /** true where this dialect cannot run here: `describe.skipIf(dialect.skip)` so bun test counts it as skipped */
  skip: boolean
  env(): Promise<Env>
}

/**
 * SQLite, and PostgreSQL where its binaries are installed (the run's one server of tests/helpers/pg-server.ts, a
 * new database per `env()`): for tests that run the whole app on each. Without PostgreSQL its tests are skipped.
 */
export function appDialects(): AppDialect[] {
  return [
    { name: 'sqlite', skip: false, env: async () => ({}) },
    { name: 'postgres', skip: !hasPostgres(), env: async () => ({ DATABASE_URL: await (await sharedPostgres()).createDatabase() }) },
  ]
}

/** JSON request helper: returns status and parsed body. */
export async function call(
  app: TestApp,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: any; headers: Headers }> {
  const response = await app.fetch(path, {
    method,
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  })
  const text = await response.text()
  let parsed: unknown = text
  try {
    parsed = JSON.parse(text)
  } catch {}
  return { status: response.status, body: parsed, headers: response.headers }
}
