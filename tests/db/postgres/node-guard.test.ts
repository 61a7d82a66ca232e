/**
 * The node guard on a real PostgreSQL server: nodes with Redis share the lock, a node without holds it alone,
 * either kind is refused beside the other with a message naming REDIS_URL, and a killed node's lock goes
 * with its connection so a restart is never blocked.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { NodeGuardError, takeNodeGuard, type NodeGuard } from '../../../src/db/postgres/node-guard'
import { hasPostgres, NO_POSTGRES, sharedPostgres, type PgServer } from '../../helpers/pg-server'

const describePg = hasPostgres() ? describe : describe.skip
if (!hasPostgres()) console.warn(`tests/db/postgres/node-guard: ${NO_POSTGRES}`)

describePg('the node guard', () => {
  let server: PgServer
  const held: NodeGuard[] = []
  const take = async (url: string, shared: boolean) => {
    const guard = await takeNodeGuard(url, { shared })
    held.push(guard)
    return guard
  }
  const refusal = (url: string, shared: boolean) =>
    takeNodeGuard(url, { shared }).then(
      () => {
        throw new Error('taken, but should have been refused')
      },
      (error: unknown) => error,
    )
  beforeAll(async () => {
    server = await sharedPostgres()
  }, 60_000)
  afterAll(async () => {
    for (const guard of held) await guard.release()
  })

  test('a second node without Redis is refused naming REDIS_URL; the first keeps its lock', async () => {
    const url = await server.createDatabase()
    const first = await take(url, false)
    const error = await refusal(url, false)
    expect(error).toBeInstanceOf(NodeGuardError)
    expect((error as Error).message).toContain('Set REDIS_URL')
    // nor may a Redis node join a lone one
    expect(((await refusal(url, true)) as Error).message).toContain('a Tollgate node without REDIS_URL is serving from this database')
    expect(first.held).toBe(true)
    await first.release()
    // released: the next lone node starts
    await (await take(url, false)).release()
  })

  test('nodes with Redis share the lock, and a lone node is refused beside them', async () => {
    const url = await server.createDatabase()
    const a = await take(url, true)
    const b = await take(url, true)
    expect(((await refusal(url, false)) as Error).message).toContain('Set REDIS_URL')
    await a.release()
    expect(await refusal(url, false)).toBeInstanceOf(NodeGuardError)
    await b.release()
    await (await take(url, false)).release()
  })

  test('a node killed with SIGKILL never blocks the restart: its lock ends with its connection', async () => {
    const url = await server.createDatabase()
    const child = Bun.spawn(
      ['bun', '-e', `const { takeNodeGuard } = await import(${JSON.stringify(`${import.meta.dir}/../../../src/db/postgres/node-guard.ts`)}); await takeNodeGuard(process.env.URL, { shared: false }); console.log('held'); setInterval(() => {}, 1000)`],
      { env: { ...process.env, URL: url }, stdout: 'pipe', stderr: 'inherit' },
    )
    const reader = child.stdout.getReader()
    expect(new TextDecoder().decode((await reader.read()).value)).toContain('held')
    expect(await refusal(url, false)).toBeInstanceOf(NodeGuardError)
    child.kill('SIGKILL')
    await child.exited
    // the server notices the closed socket at once on loopback; poll rather than sleep
    const deadline = Date.now() + 10_000
    let guard: NodeGuard | undefined
    while (!guard && Date.now() < deadline) {
      guard = await takeNodeGuard(url, { shared: false }).catch(() => undefined)
      if (!guard) await Bun.sleep(50)
    }
    expect(guard).toBeDefined()
    await guard!.release()
  })
})
