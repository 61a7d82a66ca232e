import { existsSync } from 'node:fs'
import { publishingRepos } from '../cluster/publishing-repos'
import type { Config } from '../config'
import { createCoordination } from '../coord'
import { openRepos } from '../db'
import { NewerDatabaseError } from '../db/errors'
import type { Repos } from '../db/repos'

export class CommandError extends Error {}

/**
 * For a command that changes data while no gateway runs here: the database the server would open (migrated as a
 * start would), its repositories, then closed again. Never creates a database that is not there. With `REDIS_URL`
 * its writes are published as a node's are (src/cluster), so gateways elsewhere on the same database drop what
 * they cached (a reset password ends their sessions too).
 */
export async function withRepos<T>(config: Pick<Config, 'sqlitePath' | 'database' | 'redisUrl'>, fn: (repos: Repos) => Promise<T> | T): Promise<T> {
  if (config.database.kind === 'sqlite' && !existsSync(config.sqlitePath)) {
    throw new CommandError(`no database at ${config.sqlitePath} (wrong --data-dir, or the gateway never started there)`)
  }
  let repos: Repos
  try {
    // writer thread "on": it starts only with a first batch of usage logs, and a command writes none
    repos = await openRepos({ database: config.database, writerThread: true })
  } catch (error) {
    if (error instanceof NewerDatabaseError) throw new CommandError(error.message)
    throw error
  }
  const coord = config.redisUrl ? await createCoordination({ url: config.redisUrl }) : undefined
  try {
    return await fn(coord ? publishingRepos(repos, coord.publish) : repos)
  } finally {
    await repos.close()
    await coord?.close()
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
