import { Database } from 'bun:sqlite'
import { accessSync, constants, existsSync, readdirSync, statfsSync, statSync } from 'node:fs'
import { join } from 'node:path'
import type { Config, Env } from '../config'
import { createSecretBox } from '../crypto/secret-box'
import { migrations } from '../db/sqlite/migrations'
import { CRYPTO_SECRET_FILE, currentSecrets, SESSION_SECRET_FILE } from '../backup/backup'
import { askStatus } from './control'
import { commandConfig, DATA_OPTIONS, EXIT, parseCommandArgs } from './args'

export const DOCTOR_HELP = `Usage: tollgate doctor [--data-dir DIR] [--json]

Check an instance, running or stopped: the data directory (exists, writable, not open to others, files owned by
its owner), the database (opens, PRAGMA integrity_check, migrations), the secrets (present, private, and able to
decrypt the stored channel keys), the clock (not behind the newest usage log row), free disk space; on a stopped
instance also that its port is free. Each check prints one line: ok, warn or FAIL.

  --data-dir DIR   the data directory (default: DATA_DIR or ./data; SQLITE_PATH and DATABASE_URL are honoured)
  --json           one JSON object instead of lines

Exit codes: 0 nothing is wrong (warnings allowed), 1 something is wrong (a FAIL line), 2 usage.
`

type Verdict = 'ok' | 'warn' | 'fail'
interface Finding {
  check: string
  verdict: Verdict
  detail: string
}

export async function runDoctor(argv: readonly string[], env: Env): Promise<number> {
  const parsed = parseCommandArgs('doctor', argv, { ...DATA_OPTIONS, json: { type: 'boolean' } }, { min: 0, max: 0 })
  if (parsed.values.help) return void console.log(DOCTOR_HELP), EXIT.ok
  const config = commandConfig(parsed, env)
  const findings = await diagnose(config)
  const failed = findings.some((f) => f.verdict === 'fail')
  if (parsed.values.json) console.log(JSON.stringify({ ok: !failed, dataDir: config.dataDir, findings }, null, 2))
  else {
    for (const f of findings) console.log(`${f.verdict === 'fail' ? 'FAIL' : f.verdict.padEnd(4)}  ${f.check.padEnd(18)} ${f.detail}`)
    console.log(failed ? 'something is wrong: see the FAIL lines' : 'nothing is wrong')
  }
  return failed ? EXIT.failed : EXIT.ok
}

async function diagnose(config: Config): Promise<Finding[]> {
  const out: Finding[] = []
  const add = (check: string, verdict: Verdict, detail: string) => out.push({ check, verdict, detail })

  const running = await askStatus(config)
  add('gateway', 'ok', running ? `running: pid ${running.pid}, version ${running.version}, http://${running.hostname}:${running.port}` : 'not running')

  // the data directory
  const dir = config.dataDir
  if (!existsSync(dir)) {
    add('data directory', 'fail', `${dir} does not exist (wrong --data-dir or DATA_DIR?)`)
  } else {
    const st = statSync(dir)
    if (!st.isDirectory()) add('data directory', 'fail', `${dir} is not a directory`)
    else {
      const mode = st.mode & 0o777
      try {
        accessSync(dir, constants.W_OK | constants.R_OK | constants.X_OK)
        add('data directory', mode & 0o002 ? 'fail' : mode & 0o005 ? 'warn' : 'ok', `${dir}: mode ${mode.toString(8).padStart(4, '0')}, owner uid ${st.uid}${mode & 0o002 ? ': writable by everyone' : mode & 0o005 ? ': others may list or enter it (0700 or 0750 is enough)' : ''}`)
      } catch {
        add('data directory', 'fail', `${dir} is not readable and writable by uid ${process.getuid?.() ?? '?'} (owner uid ${st.uid}, mode ${mode.toString(8)})`)
      }
      const foreign = readdirSync(dir).filter((name) => {
        try {
          return statSync(join(dir, name)).uid !== st.uid
        } catch {
          return false
        }
      })
      if (foreign.length) add('file owners', 'fail', `${foreign.join(', ')} belong to another user than the directory (uid ${st.uid}): the gateway may not open them (chown -R them)`)
      else add('file owners', 'ok', `every file belongs to uid ${st.uid}`)
    }
  }

  // the database
  let logNewest: number | undefined
  let sealedKey: string | undefined
  if (!existsSync(dir) && !existsSync(config.sqlitePath)) {
    // said above: nothing more to find there
  } else if (!existsSync(config.sqlitePath)) {
    add('database', existsSync(dir) && readdirSync(dir).length === 0 ? 'warn' : 'fail', `no database at ${config.sqlitePath}${running ? '' : ' (the first start creates it)'}`)
  } else {
    let db: Database | undefined
    try {
      db = new Database(config.sqlitePath, { readonly: true })
      db.exec('PRAGMA busy_timeout = 5000')
      const started = performance.now()
      const integrity = db.query<{ integrity_check: string }, []>('PRAGMA integrity_check').all().map((r) => r.integrity_check)
      const ms = Math.round(performance.now() - started)
      if (integrity.length === 1 && integrity[0] === 'ok') add('database', 'ok', `${config.sqlitePath}: integrity ok (${(statSync(config.sqlitePath).size / 1048576).toFixed(1)} MiB, checked in ${ms} ms)`)
      else add('database', 'fail', `${config.sqlitePath}: integrity check failed: ${integrity.slice(0, 3).join('; ')} (restore a backup)`)
      const tags = new Set(db.query<{ tag: string }, []>('SELECT tag FROM __tollgate_migrations').all().map((r) => r.tag))
      const known = new Set(migrations.map((m) => m.tag))
      const unknown = [...tags].filter((t) => !known.has(t))
      const pending = migrations.filter((m) => !tags.has(m.tag)).map((m) => m.tag)
      if (unknown.length) add('migrations', 'fail', `written by a newer Tollgate (${unknown.join(', ')}): upgrade this binary`)
      else if (pending.length) add('migrations', running ? 'fail' : 'ok', `${pending.length} to apply (${pending.join(', ')})${running ? '' : ': the next start applies them'}`)
      else add('migrations', 'ok', `all ${migrations.length} applied`)
      logNewest = db.query<{ t: number | null }, []>('SELECT max(created_at) AS t FROM logs').get()?.t ?? undefined
      sealedKey = db.query<{ key: string }, []>("SELECT key FROM channels WHERE key LIKE 'v1:%' LIMIT 1").get()?.key
    } catch (error) {
      add('database', 'fail', `${config.sqlitePath}: ${(error as Error).message}`)
    } finally {
      db?.close()
    }
  }

  // the secrets
  const secrets = currentSecrets(config)
  for (const [name, file, value, fromEnv] of [
    ['session secret', SESSION_SECRET_FILE, secrets.session, config.sessionSecret],
    ['crypto secret', CRYPTO_SECRET_FILE, secrets.crypto, config.cryptoSecret],
  ] as const) {
    const path = join(dir, file)
    if (!existsSync(dir) && !fromEnv) continue
    if (fromEnv) add(name, 'ok', `from the environment`)
    else if (!value) add(name, existsSync(config.sqlitePath) ? 'fail' : 'warn', `${path} is missing${existsSync(config.sqlitePath) ? ': restore it from the backup\'s .secrets file' : ' (the first start creates it)'}`)
    else {
      const mode = statSync(path).mode & 0o777
      add(name, mode & 0o077 ? 'fail' : 'ok', `${path}: mode ${mode.toString(8).padStart(4, '0')}${mode & 0o077 ? ': readable by others (chmod 600 it)' : ''}`)
    }
  }
  if (sealedKey && secrets.crypto) {
    try {
      await createSecretBox(secrets.crypto).decrypt(sealedKey)
      add('channel keys', 'ok', 'the crypto secret decrypts the stored channel keys')
    } catch {
      add('channel keys', 'fail', 'the crypto secret does not decrypt the stored channel keys: it is not the one they were sealed with (CRYPTO_SECRET, or the backup\'s .secrets)')
    }
  }

  // the clock
  const now = Math.floor(Date.now() / 1000)
  if (now < Date.UTC(2024, 0, 1) / 1000) add('clock', 'fail', `the clock says ${new Date().toISOString()}: set it (NTP)`)
  else if (logNewest !== undefined && logNewest > now + 300) add('clock', 'fail', `the clock (${new Date().toISOString()}) is ${Math.round((logNewest - now) / 60)} min behind the newest usage log row: it went back; fix it (NTP) before serving`)
  else add('clock', 'ok', `${new Date().toISOString()}${logNewest ? `, after the newest log row (${new Date(logNewest * 1000).toISOString()})` : ''}`)

  // disk space
  if (existsSync(dir)) {
    try {
      const fs = statfsSync(dir)
      const free = fs.bavail * fs.bsize
      const db = existsSync(config.sqlitePath) ? statSync(config.sqlitePath).size : 0
      const need = Math.max(256 * 1048576, 2 * db)
      add('disk space', free < need ? 'warn' : 'ok', `${(free / 1073741824).toFixed(1)} GiB free${free < need ? `: less than ${(need / 1048576).toFixed(0)} MiB (twice the database: a backup or VACUUM needs room)` : ''}`)
    } catch {}
  }

  // the port, when nothing of ours holds it
  if (!running) {
    const free = portFree(config)
    add('port', free === true ? 'ok' : 'fail', free === true ? `${config.hostname}:${config.port} is free` : `${config.hostname}:${config.port} is taken: ${free}`)
  }
  return out
}

function portFree(config: Pick<Config, 'hostname' | 'port'>): true | string {
  try {
    const server = Bun.serve({ port: config.port, hostname: config.hostname, fetch: () => new Response() })
    server.stop(true)
    return true
  } catch (error) {
    return (error as Error).message
  }
}
