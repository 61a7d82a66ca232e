import type { Env } from '../config'
import { askRunning, askStatus, ControlError, controlActions } from './control'
import { commandConfig, DATA_OPTIONS, EXIT, parseCommandArgs } from './args'
import { CommandError, readLine, withRepos } from './database'

export const RESET_PASSWORD_HELP = `Usage: tollgate reset-password <username> [--data-dir DIR]   (the new password: one line on stdin)

Set a user's password and end every session of theirs (each session cookie stops working) and their access token
for the management API (a new one comes from GET /api/user/token after logging in). Failed logins counted against
the old password no longer count: the new one is let in at once, from any address. Works whether the gateway runs
or not: a running gateway does it itself, through the control socket in its data directory, so its caches see the
change at once.

  echo 'new-password-123' | tollgate reset-password root
  tollgate reset-password alice < password.txt

  --data-dir DIR   the data directory (default: DATA_DIR or ./data; SQLITE_PATH and DATABASE_URL are honoured)

Exit codes: 0 reset, 1 failed (no such user, a password not of 8 to 64 characters, no database), 2 usage.
`

export async function runResetPassword(argv: readonly string[], env: Env): Promise<number> {
  const parsed = parseCommandArgs('reset-password', argv, DATA_OPTIONS, { min: 1, max: 1 })
  if (parsed.values.help) return void console.log(RESET_PASSWORD_HELP), EXIT.ok
  // on PostgreSQL too: the write goes to the shared database, and with REDIS_URL every node hears of it
  const config = commandConfig(parsed, env, { postgres: 'allowed' })
  const username = parsed.positionals[0]!
  const password = await readLine(`new password for ${username}: `)
  try {
    const running = await askStatus(config)
    if (running) await askRunning(config, 'reset-password', { username, password })
    else await withRepos(config, (repos) => controlActions({ repos }).resetPassword(username, password))
    console.log(`the password of ${username} was reset${running ? ` by the running gateway (pid ${running.pid})` : ''}; every session of theirs and their access token have ended`)
    return EXIT.ok
  } catch (error) {
    if (!(error instanceof ControlError || error instanceof CommandError)) throw error
    console.error(`tollgate reset-password: ${error.message}`)
    return EXIT.failed
  }
}
