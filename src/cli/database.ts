import { existsSync } from 'node:fs'
import type { Config } from '../config'
import { closeDatabase, openDatabase } from '../db/sqlite/client'
import { migrate, NewerDatabaseError } from '../db/sqlite/migrate'
import { createRepos, type Repos } from '../db/repos'

export class CommandError extends Error {}

/**
 * For a command that changes data while no gateway runs: the database the server would open (migrated as a
 * start would), its repositories, then closed again. Never creates a database that is not there.
 */
export async function withRepos<T>(config: Pick<Config, 'sqlitePath'>, fn: (repos: Repos) => Promise<T> | T): Promise<T> {
  if (!existsSync(config.sqlitePath)) throw new CommandError(`no database at ${config.sqlitePath} (wrong --data-dir, or the gateway never started there)`)
  const db = openDatabase(config.sqlitePath)
  try {
    migrate(db)
  } catch (error) {
    closeDatabase(db)
    if (error instanceof NewerDatabaseError) throw new CommandError(error.message)
    throw error
  }
  // writer thread "on": it starts only with a first batch of usage logs, and a command writes none
  const repos = createRepos(db, { writerThread: true })
  try {
    return await fn(repos)
  } finally {
    repos.close()
    closeDatabase(db)
  }
}

/** One line from standard input (a prompt on stderr when it is a terminal), without its line end. */
export async function readLine(prompt: string): Promise<string> {
  if (process.stdin.isTTY) process.stderr.write(prompt)
  const decoder = new TextDecoder()
  let text = ''
  const reader = Bun.stdin.stream().getReader()
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) return text
      text += decoder.decode(value, { stream: true })
      const end = text.search(/\r?\n/)
      if (end >= 0) return text.slice(0, end)
    }
  } finally {
    reader.releaseLock()
  }
}
