import type { Env } from '../config'
import { VERSION } from '../version'
import { EXIT, parseCommandArgs } from './args'

export const VERSION_HELP = `Usage: tollgate version [--json]

Print the version (the same as tollgate --version). With --json: version, Bun, platform and architecture.
`

export async function runVersion(argv: readonly string[], _env: Env): Promise<number> {
  const parsed = parseCommandArgs('version', argv, { help: { type: 'boolean', short: 'h' }, json: { type: 'boolean' } }, { min: 0, max: 0 })
  if (parsed.values.help) return void console.log(VERSION_HELP), EXIT.ok
  if (parsed.values.json) console.log(JSON.stringify({ version: VERSION, bun: Bun.version, platform: process.platform, arch: process.arch }))
  else console.log(VERSION)
  return EXIT.ok
}
