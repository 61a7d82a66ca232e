/**
 * A plain metered chat request, once caches are warm, asks the database nothing on its own connection: the key, its
 * owner, the channels, prices and options are in memory, and the user's "holds no plan" is remembered
 * (db/repos/plan-holders.ts); the settlement's writes go to the writer thread in batches. A lookup added to the
 * request path (a plan, a preference, an override read per request) shows here as about one statement per request.
 * bench/per-request-work.ts counts the same in a running gateway (statements, JSON calls, bytes allocated).
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { RelayEnv } from '../helpers/relay-env'
import { chat, chatBody, startMeteredEnv } from '../metering/env'

let env: RelayEnv
beforeAll(async () => {
  env = await startMeteredEnv()
  await env.addChannel({ type: 1, models: 'gpt-4o' })
  await env.app.deps.options.set('ModelPrice', { 'gpt-4o': 0.002 })
  env.upstream.setBehavior({ text: 'ok', usage: { input: 10, output: 10 } })
})
afterAll(() => env.stop())

/** Every statement run on the app's own SQLite connection, by SQL text, while `run` runs. */
async function statementsDuring(run: () => Promise<void>): Promise<string[]> {
  const db = env.app.db.$client as unknown as Record<string, (...args: unknown[]) => unknown>
  const seen: string[] = []
  const originals = { prepare: db.prepare!, query: db.query!, run: db.run!, exec: db.exec! }
  const counting = (statement: Record<string, (...args: unknown[]) => unknown>, sql: string) => {
    for (const name of ['get', 'all', 'iterate', 'values', 'run'] as const) {
      const original = statement[name]
      if (typeof original === 'function') statement[name] = (...args: unknown[]) => (seen.push(sql), original.apply(statement, args))
    }
    return statement
  }
  for (const name of ['prepare', 'query'] as const) db[name] = (sql: unknown, ...rest: unknown[]) => counting(originals[name].call(db, sql, ...rest) as never, String(sql))
  for (const name of ['run', 'exec'] as const) db[name] = (sql: unknown, ...rest: unknown[]) => (seen.push(String(sql)), originals[name].call(db, sql, ...rest))
  try {
    await run()
  } finally {
    for (const name of Object.keys(originals) as (keyof typeof originals)[]) delete db[name]
  }
  return seen
}

async function requests(n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    const res = await chat(env, env.key, chatBody('gpt-4o'))
    expect(res.status).toBe(200)
    await res.text()
  }
}

test('a warm plain chat request runs no statement on the request path', async () => {
  await requests(20) // caches filled: key, user, channels, "no plan"
  await env.app.deps.metering.settledAll()
  const n = 60
  const seen = await statementsDuring(async () => {
    await requests(n)
    await env.app.deps.metering.settledAll()
  })
  // background work (a task poll, a batch flush) may land in the window, but nowhere near one per request
  expect(seen.length / n, `statements seen: ${seen.slice(0, 3).map((sql) => sql.slice(0, 120)).join(" | ")}`).toBeLessThan(0.1)
})
