import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openRepos, type PostgresExtras } from '../../../src/db'
import type { Repos } from '../../../src/db/repos'
import { hasPostgres, NO_POSTGRES, sharedPostgres } from '../../helpers/pg-server'

/** A fresh, migrated database of one dialect behind the repository interface, opened through the factory. */
export interface DialectUnderTest {
  name: 'sqlite' | 'postgres'
  /** true where this dialect cannot run here: `describe.skipIf(dialect.skip)` so bun test counts it as skipped */
  skip: boolean
  open(extras?: PostgresExtras): Promise<{ repos: Repos; close(): Promise<void> }>
}

async function openSqlite() {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-repos-'))
  // no writer thread: a commit is on disk when it resolves, as on a dialect that writes at once
  const repos = await openRepos({ database: { kind: 'sqlite', path: join(dir, 'tollgate.db') }, writerThread: false })
  return {
    repos,
    async close() {
      await repos.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

/** A fresh database on the run's one PostgreSQL server (tests/helpers/pg-server.ts), opened as a node would open it. */
async function openPostgresDialect(extras: PostgresExtras = {}) {
  const server = await sharedPostgres()
  const url = await server.createDatabase()
  const repos = await openRepos({ database: { kind: 'postgres', url, poolSize: 10, statementTimeoutMs: 30_000, holdTtlSeconds: 45 }, writerThread: false }, extras)
  return { repos, close: () => repos.close() }
}

if (!hasPostgres()) console.warn(`tests/db/repos: ${NO_POSTGRES}`)

/**
 * The dialects the repository tests run against: SQLite, and PostgreSQL where its binaries are installed (a
 * server per `bun test` run, a fresh database per `open()`); without them its tests are reported as skipped.
 */
export const DIALECTS: DialectUnderTest[] = [
  { name: 'sqlite', skip: false, open: openSqlite },
  { name: 'postgres', skip: !hasPostgres(), open: openPostgresDialect },
]
