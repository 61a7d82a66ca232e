import { runCli } from './cli'

// The command line: `tollgate` / `tollgate serve` runs the gateway; the other commands (src/cli/) run and exit
// with their code (see docs/operations.md for the codes scripts can rely on).
process.exit(await runCli(Bun.argv.slice(2), process.env))
