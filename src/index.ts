import { runCli } from './cli'
import { privateUmask } from './launch/private-files'

// before any file is made: databases, secrets, backups and their temporary files are born 0600 (dirs 0700)
privateUmask()

// The command line: `tollgate` / `tollgate serve` runs the gateway; the other commands (src/cli/) run and exit
// with their code (see docs/operations.md for the codes scripts can rely on). No top-level await here: an
// entry that awaits kept ~3 MB more of the binary resident for as long as the gateway ran.
void runCli(Bun.argv.slice(2), process.env).then((code) => process.exit(code))
