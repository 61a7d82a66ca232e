/**
 * A node on PostgreSQL when the server goes away and comes back: metered requests get a 503 in their API's
 * shape with retry-after (nothing charged, nothing half-written), /readyz says not ready so a load balancer
 * stops sending, /healthz still answers; once PostgreSQL is back the node serves again by itself.
 */
import { SQL } from 'bun'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstreams'
import { hasPostgres, startPostgres, type PgServer } from '../helpers/pg-server'
import { chat, login, ROOT_PASSWORD, startNode, within, type Node } from './cluster'

const describePg = hasPostgres() ? describe : describe.skip

describePg('PostgreSQL down and back', () => {
  let pg: PgServer
  let upstream: FakeUpstream
  let node: Node
  let url: string
  let key: string
  beforeAll(async () => {
    ;[pg, upstream] = await Promise.all([startPostgres(), startFakeUpstream({ keys: ['sk-up'] })])
    upstream.setBehavior({ text: 'ok', usage: { input: 10, output: 10 } })
    url = await pg.createDatabase()
    node = await startNode('alone', { DATABASE_URL: url })
    const root = await login(node.url, 'root', ROOT_PASSWORD)
    await root.must('PUT', '/api/option/', { key: 'ModelPrice', value: { 'gpt-4o': 0.002 } })
    await root.must('POST', '/api/channel/', { type: 1, name: 'up', key: 'sk-up', base_url: upstream.url, models: 'gpt-4o', group: 'default' })
    await root.must('POST', '/api/user/', { username: 'payer', password: 'payer-password-1', quota: 1_000_000 })
    const payer = await login(node.url, 'payer', 'payer-password-1')
    const token = await payer.must('POST', '/api/token/', { name: 'k', unlimited_quota: false, remain_quota: 1_000_000 })
    key = String(token.key).startsWith('sk-') ? String(token.key) : `sk-${token.key}`
  }, 60_000)
  afterAll(async () => {
    await node?.stop('SIGKILL')
    await Promise.all([pg?.stop(), upstream?.stop()])
  })

  test('a 503 in the route shape while it is down, /readyz 503, and served again once it is back', async () => {
    expect((await chat(node.url, key)).status).toBe(200)
    const sentBefore = upstream.requests.length
    await pg.down()
    const res = await chat(node.url, key)
    expect(res.status).toBe(503)
    expect(res.headers.get('retry-after')).toBe('1')
    const body = (await res.json()) as any
    expect(body.error).toMatchObject({ message: 'the database is not answering: try again shortly' })
    expect(upstream.requests.length).toBe(sentBefore) // refused before anything was sent
    const messages = await fetch(`${node.url}/v1/messages`, { method: 'POST', headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' }, body: JSON.stringify({ model: 'gpt-4o', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] }) })
    expect(messages.status).toBe(503)
    expect(((await messages.json()) as any).type).toBe('error')
    expect((await fetch(`${node.url}/readyz`)).status).toBe(503)
    expect((await fetch(`${node.url}/healthz`)).status).toBe(200)

    await pg.up()
    await within(15_000, async () => (await chat(node.url, key)).status === 200, 'served again')
    expect((await fetch(`${node.url}/readyz`)).status).toBe(200)
    // what was charged matches what was logged: the refused requests cost nothing (the served ones' last log batch
    // may still be on its way: waited for, and a mismatch that stays fails here after 10 s)
    const db = new SQL({ url, max: 1 })
    const charged = async () => (await db`SELECT (1000000 - u.quota)::bigint AS fell, (SELECT coalesce(sum(quota), 0) FROM logs WHERE type = 2 AND username = 'payer')::bigint AS logged FROM users u WHERE u.username = 'payer'`)[0]
    await within(10_000, async () => { const { fell, logged } = await charged(); return Number(fell) === Number(logged) }, 'charges equal to the logged quota').catch(() => undefined)
    const { fell, logged } = await charged()
    await db.close()
    expect(Number(fell)).toBe(Number(logged))
    expect(Number(fell)).toBeGreaterThan(0)
  }, 60_000)
})
