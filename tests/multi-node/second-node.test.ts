/**
 * Start-up on a shared PostgreSQL database, as processes: a second node without REDIS_URL is refused (exit 3,
 * a message naming REDIS_URL) while the first keeps serving; after the first is killed with SIGKILL, a node
 * starts at once (its registration went with its connection); a node with REDIS_URL cannot join a lone one.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { hasPostgres, startPostgres, type PgServer } from '../helpers/pg-server'
import { startNode, type Node } from './cluster'

const describePg = hasPostgres() ? describe : describe.skip

describePg('a second node on one PostgreSQL database', () => {
  let pg: PgServer
  const nodes: Node[] = []
  beforeAll(async () => {
    pg = await startPostgres()
  }, 60_000)
  afterAll(async () => {
    for (const node of nodes) await node.stop('SIGKILL')
    await pg?.stop()
  })

  test('without REDIS_URL it is refused naming REDIS_URL while the first serves; after kill -9 of the first, the next starts', async () => {
    const url = await pg.createDatabase()
    const first = await startNode('first', { DATABASE_URL: url })
    nodes.push(first)
    const refused = await startNode('second', { DATABASE_URL: url }).then(
      () => undefined,
      (error: Error) => error.message,
    )
    expect(refused).toContain('exit 3')
    expect(refused).toContain('Set REDIS_URL')
    const withRedis = await startNode('joiner', { DATABASE_URL: url, REDIS_URL: 'redis://127.0.0.1:1/0' }).then(
      () => undefined,
      (error: Error) => error.message,
    )
    expect(withRedis).toContain('a Tollgate node without REDIS_URL is serving from this database')
    expect((await fetch(`${first.url}/readyz`)).status).toBe(200)

    first.proc.kill('SIGKILL')
    await first.proc.exited
    const next = await startNode('next', { DATABASE_URL: url })
    nodes.push(next)
    expect((await fetch(`${next.url}/readyz`)).status).toBe(200)
  }, 90_000)
})
