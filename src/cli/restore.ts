import { resolve } from 'node:path'
import type { Env } from '../config'
import { BackupError, restoreDatabase } from '../backup/backup'
import { askStatus } from './control'
import { commandConfig, DATA_OPTIONS, EXIT, parseCommandArgs } from './args'

export const RESTORE_HELP = `Usage: tollgate restore <file> [--secrets FILE | --no-secrets] [--data-dir DIR]

Bring back an instance from a backup: into a stopped gateway's empty data directory (no database, no
secrets there yet; it is created if missing), the backup is checked (integrity, a Tollgate database, not from
a newer version) and put in place, with the secrets from <file>.secrets when that file exists. Start the
gateway on that data directory afterwards: it applies any migration the backup lacks.

  --secrets FILE   take the secrets from FILE instead of <file>.secrets
  --no-secrets     do not restore secrets (set SESSION_SECRET and CRYPTO_SECRET to the old values instead,
                   or channel keys stay unreadable and every session ends)
  --data-dir DIR   the data directory (default: DATA_DIR or ./data; SQLITE_PATH and DATABASE_URL are honoured)

Exit codes: 0 restored, 1 failed (a bad or unreadable backup), 2 usage, 3 refused: the gateway runs on that
data directory, or it is not empty.
`

export async function runRestore(argv: readonly string[], env: Env): Promise<number> {
  const parsed = parseCommandArgs('restore', argv, { ...DATA_OPTIONS, secrets: { type: 'string' }, 'no-secrets': { type: 'boolean' } }, { min: 1, max: 1 })
  if (parsed.values.help) return void console.log(RESTORE_HELP), EXIT.ok
  const config = commandConfig(parsed, env)
  const source = resolve(parsed.positionals[0]!)
  const running = await askStatus(config)
  if (running) {
    console.error(`tollgate restore: a gateway (pid ${running.pid}) runs on ${config.dataDir}: stop it, and restore into an empty data directory`)
    return EXIT.refused
  }
  const secretsFile = parsed.values['no-secrets'] ? false : typeof parsed.values.secrets === 'string' ? resolve(parsed.values.secrets) : undefined
  try {
    const result = restoreDatabase(config, source, { secretsFile })
    console.log(`restored ${source} into ${result.sqlitePath}`)
    if (result.secretsRestored) console.log(`secrets restored into ${config.dataDir} (mode 0600)`)
    else console.log('no secrets restored: set SESSION_SECRET and CRYPTO_SECRET to the values the backed-up instance used, or its channel keys stay unreadable')
    if (result.migrationsBehind > 0) console.log(`the backup lacks ${result.migrationsBehind} migration(s): the next start applies them`)
    console.log(`start it: tollgate serve --data-dir ${config.dataDir}`)
    return EXIT.ok
  } catch (error) {
    if (!(error instanceof BackupError)) throw error
    console.error(`tollgate restore: ${error.message}`)
    return error.cause === 'not-empty' ? EXIT.refused : EXIT.failed
  }
}
