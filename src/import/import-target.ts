import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { SecretBox } from '../crypto/secret-box'
import { redactUrl } from '../config'
import { openPostgresImport } from '../db/postgres/repos/import'
import { closeDatabase, openDatabase, type Db } from '../db/sqlite/client'
import { migrate } from '../db/sqlite/migrate'
import type { ImportRepo } from '../db/repos'
import { createImportRepo, openDryRunCopy } from '../db/sqlite/repos/import'
import { loadOrCreateSecret } from '../secrets'

/** Where an import writes: a SQLite file (or a dry run's copy of it), or a PostgreSQL database; and its crypto secret. */
export interface TargetOptions {
  dataDir: string
  sqlitePath: string
  /** a postgres:// DATABASE_URL: the target is that PostgreSQL database, not `sqlitePath` */
  databaseUrl?: string
  cryptoSecret?: string
  dryRun: boolean
}

export interface ImportTarget {
  repo: ImportRepo
  close(): Promise<void>
}

/** The target's import repository: the PostgreSQL database of `databaseUrl`, else the SQLite file. */
export async function openTarget(options: TargetOptions): Promise<ImportTarget> {
  if (options.databaseUrl) return openPostgresImport(options.databaseUrl)
  const db = await openSqliteTarget(options)
  return { repo: createImportRepo(db), close: async () => closeDatabase(db) }
}

/**
 * The SQLite target, migrated like the server does at start. openDatabase's first statement runs before its busy
 * timeout is set, so a gateway that has just stopped (its last connection checkpointing) can answer
 * SQLITE_BUSY for a moment: retried for up to 5 s, then reported.
 */
async function openSqliteTarget(options: TargetOptions): Promise<Db> {
  const until = Date.now() + 5000
  for (;;) {
    let db: Db | undefined
    try {
      db = options.dryRun ? openDryRunCopy(options.sqlitePath) : openDatabase(options.sqlitePath)
      migrate(db)
      return db
    } catch (error) {
      if (db) closeDatabase(db)
      if ((error as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() > until) throw error
      await Bun.sleep(50)
    }
  }
}

/** The target's crypto secret: CRYPTO_SECRET, else DATA_DIR/crypto.secret (created if missing, except on a dry run). */
export function cryptoSecret(options: TargetOptions): string {
  if (options.cryptoSecret) return options.cryptoSecret
  // every node opens the channel keys with the CRYPTO_SECRET of its environment: a file here would seal them with another
  if (options.databaseUrl) throw new Error('a PostgreSQL target needs CRYPTO_SECRET in the environment, the one every node runs with')
  if (!options.dryRun) return loadOrCreateSecret(options.dataDir, 'crypto.secret', undefined)
  const path = join(options.dataDir, 'crypto.secret')
  const stored = existsSync(path) ? readFileSync(path, 'utf8').trim() : ''
  return stored.length >= 32 ? stored : Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url')
}

/**
 * Into a target that has channels already (--merge), the secret must be the one their keys were sealed with:
 * the gateway could not read keys sealed with another (a CRYPTO_SECRET set for the server, not for the import).
 */
export async function checkSecret(box: SecretBox, repo: ImportRepo, options: TargetOptions): Promise<void> {
  const sealed = await repo.anyChannelKey()
  if (sealed === undefined) return
  await box.decrypt(sealed).catch(() => {
    throw new Error(
      `the channel keys in ${options.databaseUrl ? redactUrl(options.databaseUrl) : options.sqlitePath} were encrypted with another crypto secret: run the import with the CRYPTO_SECRET the gateway uses (or with its DATA_DIR/crypto.secret)`,
    )
  })
}
