import type { Env } from '../config'

/**
 * `tollgate import new-api …` (src/import/, its own arguments and help). Loaded only for this command: a
 * serving gateway never pays for the importer or its SQL clients.
 */
export async function runImport(argv: readonly string[], env: Env): Promise<number> {
  const { runImportCli } = await import('../import/cli')
  return runImportCli(argv, env)
}
