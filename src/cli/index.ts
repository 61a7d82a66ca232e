import type { Env } from '../config'
import { VERSION } from '../version'
import { EXIT, UsageError } from './args'

export interface Command {
  summary: string
  /**
   * The command's module, loaded only when it runs: a serving gateway never evaluates the others (each
   * module it loads at start stays in its memory). `help` is printed for `tollgate <command> --help`;
   * without it the command prints its own.
   */
  load(): Promise<{ help?: string; run(argv: readonly string[], env: Env): Promise<number> }>
}

/** Every command: one file each in src/cli/ (the importer's lives in src/import/). */
export const COMMANDS: Record<string, Command> = {
  serve: { summary: 'run the gateway (the default when no command is given)', load: () => import('./serve').then((m) => ({ help: m.SERVE_HELP, run: m.runServe })) },
  backup: { summary: 'snapshot the database (and its secrets) while the gateway runs or not', load: () => import('./backup').then((m) => ({ help: m.BACKUP_HELP, run: m.runBackup })) },
  restore: { summary: 'bring back an instance from a backup, into an empty data directory', load: () => import('./restore').then((m) => ({ help: m.RESTORE_HELP, run: m.runRestore })) },
  'reset-password': {
    summary: "set a user's password (one line on stdin) and end their sessions",
    load: () => import('./reset-password').then((m) => ({ help: m.RESET_PASSWORD_HELP, run: m.runResetPassword })),
  },
  'create-token': { summary: 'create an API key (sk-…) for a user and print it', load: () => import('./create-token').then((m) => ({ help: m.CREATE_TOKEN_HELP, run: m.runCreateToken })) },
  doctor: { summary: 'check the data directory, database, secrets, clock and port', load: () => import('./doctor').then((m) => ({ help: m.DOCTOR_HELP, run: m.runDoctor })) },
  health: { summary: 'ask a running gateway for /healthz (or /readyz): exit 0 or 1, for health checks', load: () => import('./health').then((m) => ({ help: m.HEALTH_HELP, run: m.runHealth })) },
  version: { summary: 'print the version', load: () => import('./version').then((m) => ({ help: m.VERSION_HELP, run: m.runVersion })) },
  'migrate-db': {
    summary: 'copy this SQLite instance into an empty PostgreSQL database (for several nodes)',
    load: () => import('./migrate-db').then((m) => ({ help: m.MIGRATE_DB_HELP, run: m.runMigrateDb })),
  },
  import: {
    summary: 'copy a new-api or one-api gateway into this data directory (see tollgate import --help)',
    load: () => import('./import').then((m) => ({ run: m.runImport })),
  },
}

const USAGE = `Tollgate ${VERSION}: a self-hosted LLM API gateway

Usage: tollgate [serve] [--port N] [--data-dir DIR]
       tollgate <command> [arguments]      tollgate <command> --help for each

Commands:
${Object.entries(COMMANDS)
  .map(([name, c]) => `  ${name.padEnd(16)}${c.summary}`)
  .join('\n')}

Every command finds its data as the server does: --data-dir, else DATA_DIR (./data); SQLITE_PATH or
DATABASE_URL name the database file (a postgres:// DATABASE_URL only migrate-db takes, for now).
Exit codes: 0 done, 1 failed, 2 usage error, 3 refused in this state. See docs/operations.md.
`

/** Run the command line; resolves to the exit code (`serve` resolves only when the process exits). */
export async function runCli(argv: readonly string[], env: Env): Promise<number> {
  const [first, ...rest] = argv
  try {
    if (first === undefined || first.startsWith('-')) {
      const serve = await COMMANDS.serve!.load()
      if (first === '--help' || first === '-h') return void console.log(`${USAGE}\n${serve.help}`), EXIT.ok
      return await serve.run(argv, env)
    }
    const command = COMMANDS[first]
    if (!command) {
      console.error(`tollgate: unknown command "${first}" (commands: ${Object.keys(COMMANDS).join(', ')}; tollgate --help)`)
      return EXIT.usage
    }
    const loaded = await command.load()
    if (loaded.help && (rest.includes('--help') || rest.includes('-h'))) return void console.log(loaded.help), EXIT.ok
    return await loaded.run(rest, env)
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`tollgate: ${error.message}`)
      return EXIT.usage
    }
    console.error(`tollgate ${first ?? 'serve'}: ${(error as Error).stack ?? error}`)
    return EXIT.failed
  }
}
