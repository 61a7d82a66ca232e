import { resolve } from 'node:path'
import type { Env } from '../config'
import { BackupError, snapshotDatabase } from '../backup/backup'
import { commandConfig, DATA_OPTIONS, EXIT, parseCommandArgs } from './args'

export const BACKUP_HELP = `Usage: tollgate backup <file> [--no-secrets] [--force] [--data-dir DIR]

A consistent snapshot of the database, taken while the gateway runs or not (SQLite's VACUUM INTO: one read
transaction of its own, the gateway goes on serving). The copy is checked (PRAGMA integrity_check) before it
takes its name. The two secrets (session signing, channel-key encryption) go to <file>.secrets (mode 0600):
without them a restored instance logs everyone out and cannot read its channel keys. Keep that file apart from
the backup, and private.

  --no-secrets     write the database only
  --force          replace <file> if it exists
  --data-dir DIR   the data directory (default: DATA_DIR or ./data; SQLITE_PATH and DATABASE_URL are honoured)

Exit codes: 0 written, 1 failed (nothing is left under <file>), 2 usage.
`

export async function runBackup(argv: readonly string[], env: Env): Promise<number> {
  const parsed = parseCommandArgs('backup', argv, { ...DATA_OPTIONS, 'no-secrets': { type: 'boolean' }, force: { type: 'boolean' } }, { min: 1, max: 1 })
  if (parsed.values.help) return void console.log(BACKUP_HELP), EXIT.ok
  const config = commandConfig(parsed, env)
  const target = resolve(parsed.positionals[0]!)
  try {
    const result = snapshotDatabase(config, target, { secrets: !parsed.values['no-secrets'], force: Boolean(parsed.values.force) })
    console.log(`backup of ${config.sqlitePath} written to ${result.path} (${(result.bytes / 1048576).toFixed(1)} MiB in ${Math.round(result.ms)} ms, integrity ok)`)
    if (result.secretsPath) console.log(`secrets written to ${result.secretsPath} (mode 0600): keep it apart from the backup`)
    return EXIT.ok
  } catch (error) {
    if (!(error instanceof BackupError)) throw error
    console.error(`tollgate backup: ${error.message}`)
    return EXIT.failed
  }
}
