import type { Env } from '../config'
import { VERSION } from '../version'
import { EXIT, UsageError } from './args'
import { BACKUP_HELP, runBackup } from './backup'
import { CREATE_TOKEN_HELP, runCreateToken } from './create-token'
import { DOCTOR_HELP, runDoctor } from './doctor'
import { IMPORT_SUMMARY, runImport } from './import'
import { RESET_PASSWORD_HELP, runResetPassword } from './reset-password'
import { RESTORE_HELP, runRestore } from './restore'
import { runServe, SERVE_HELP } from './serve'
import { runVersion, VERSION_HELP } from './version'

export interface Command {
  summary: string
  /** printed for `tollgate <command> --help` (undefined: the command prints its own) */
  help?: string
  run(argv: readonly string[], env: Env): Promise<number>
}

/** Every command: one file each in src/cli/ (the importer's lives in src/import/). */
export const COMMANDS: Record<string, Command> = {
  serve: { summary: 'run the gateway (the default when no command is given)', help: SERVE_HELP, run: runServe },
  backup: { summary: 'snapshot the database (and its secrets) while the gateway runs or not', help: BACKUP_HELP, run: runBackup },
  restore: { summary: 'bring back an instance from a backup, into an empty data directory', help: RESTORE_HELP, run: runRestore },
  'reset-password': { summary: "set a user's password (one line on stdin) and end their sessions", help: RESET_PASSWORD_HELP, run: runResetPassword },
  'create-token': { summary: 'create an API key (sk-…) for a user and print it', help: CREATE_TOKEN_HELP, run: runCreateToken },
  doctor: { summary: 'check the data directory, database, secrets, clock and port', help: DOCTOR_HELP, run: runDoctor },
  version: { summary: 'print the version', help: VERSION_HELP, run: runVersion },
  import: { summary: IMPORT_SUMMARY, run: runImport },
}

export const USAGE = `Tollgate ${VERSION}: a self-hosted LLM API gateway

Usage: tollgate [serve] [--port N] [--data-dir DIR]
       tollgate <command> [arguments]      tollgate <command> --help for each

Commands:
${Object.entries(COMMANDS)
  .map(([name, c]) => `  ${name.padEnd(16)}${c.summary}`)
  .join('\n')}

Every command finds its data as the server does: --data-dir, else DATA_DIR (./data); SQLITE_PATH or
DATABASE_URL name the database file. Exit codes: 0 done, 1 failed, 2 usage error, 3 refused in this state.
See docs/operations.md.
`

/** Run the command line; resolves to the exit code (`serve` resolves only when the process exits). */
export async function runCli(argv: readonly string[], env: Env): Promise<number> {
  const [first, ...rest] = argv
  try {
    if (first === undefined || first.startsWith('-')) {
      if (first === '--help' || first === '-h') return void console.log(`${USAGE}\n${SERVE_HELP}`), EXIT.ok
      return await runServe(argv, env)
    }
    const command = COMMANDS[first]
    if (!command) {
      console.error(`tollgate: unknown command "${first}" (commands: ${Object.keys(COMMANDS).join(', ')}; tollgate --help)`)
      return EXIT.usage
    }
    if (command.help && (rest.includes('--help') || rest.includes('-h'))) return void console.log(command.help), EXIT.ok
    return await command.run(rest, env)
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`tollgate: ${error.message}`)
      return EXIT.usage
    }
    console.error(`tollgate ${first ?? 'serve'}: ${(error as Error).stack ?? error}`)
    return EXIT.failed
  }
}
