import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openRepos } from '../../../src/db'
import type { Repos } from '../../../src/db/repos'

/** A fresh, migrated database of one dialect behind the repository interface, opened through the factory. */
export interface DialectUnderTest {
  name: string
  open(): Promise<{ repos: Repos; close(): Promise<void> }>
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

/**
 * The dialects the repository tests run against. The PostgreSQL implementation joins with one entry here
 * (`openRepos` with a `postgres` database on the test server of tests/helpers/pg-server.ts).
 */
export const DIALECTS: DialectUnderTest[] = [{ name: 'sqlite', open: openSqlite }]
