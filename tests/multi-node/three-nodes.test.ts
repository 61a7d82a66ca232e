/**
 * Issue #17's evidence: three gateway processes on one PostgreSQL and one Redis, requests spread round-robin.
 * Balances are decided by the database (1,000 concurrent requests against a balance for 100 serve exactly 100,
 * and the charges logged equal the fall in both balances), limits are shared (RPM 30 admits 30 across the three),
 * writes on one node are in force on the others within a second (token deleted, channel disabled, option
 * changed), and a node killed with SIGKILL under load leaves the others serving while its open reservations come
 * back within their lease, after which every balance equals the logged charges exactly (the dead node's last
 * batch lost its rows and their charges together; docs/deploy.md).
 */
import { SQL } from 'bun'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstreams'
import { hasPostgres, startPostgres, type PgServer } from '../helpers/pg-server'
import { hasRedis, startRedis, type RedisServer } from '../helpers/redis-server'
import { chat, login, ROOT_PASSWORD, startCluster, within, type Api, type Node } from './cluster'

const describeCluster = hasPostgres() && hasRedis() ? describe : describe.skip
if (!hasPostgres() || !hasRedis()) console.warn('tests/multi-node/three-nodes: needs PostgreSQL and Redis (apt-get install postgresql redis-server): skipped')

/** quota per call (ModelPrice): reservation and charge are the same, so "a balance for 100" is exact */
const PER_CALL = 1_000
/** the nodes' quota hold lease in this test (60 s in production), so a dead node's holds come back quickly */
const HOLD_TTL_SECONDS = 4
/** the log writer's flush interval (src/metering/log-writer.ts) plus event-loop lag and the client's own delay */
const FLUSH_WINDOW_MS = 200 + 250

describeCluster('three nodes on one PostgreSQL and Redis', () => {
  let pg: PgServer
  let redis: RedisServer
  let upstreamA: FakeUpstream
  let upstreamB: FakeUpstream
  let nodes: Node[]
  let db: SQL
  let root: Api
  const urls = () => nodes.map((n) => n.url)

  beforeAll(async () => {
    ;[pg, redis, upstreamA, upstreamB] = await Promise.all([startPostgres(), startRedis(), startFakeUpstream({ keys: ['sk-a'] }), startFakeUpstream({ keys: ['sk-b'] })])
    for (const u of [upstreamA, upstreamB]) u.setBehavior({ text: 'ok', usage: { input: 10, output: 10 } })
    const cluster = await startCluster(pg, redis.url, 3, { QUOTA_HOLD_TTL_SECONDS: String(HOLD_TTL_SECONDS) })
    nodes = cluster.nodes
    db = new SQL({ url: cluster.databaseUrl, max: 2 })
    root = await login(nodes[0]!.url, 'root', ROOT_PASSWORD)
    await root.must('PUT', '/api/option/', { key: 'ModelPrice', value: { 'gpt-4o': PER_CALL / 500_000 } })
    await root.must('POST', '/api/channel/', { type: 1, name: 'a', key: 'sk-a', base_url: upstreamA.url, models: 'gpt-4o', group: 'default' })
  }, 120_000)

  afterAll(async () => {
    await Promise.all((nodes ?? []).map((n) => n.stop('SIGKILL')))
    await db?.close()
    await Promise.all([pg?.stop(), redis?.stop(), upstreamA?.stop(), upstreamB?.stop()])
  })

  /** A user with `quota`, and a key of theirs (limited to `remain`, or unlimited), made through `node`. */
  async function payer(name: string, quota: number, remain?: number, node = 0) {
    const admin = nodes[node] === nodes[0] ? root : await login(nodes[node]!.url, 'root', ROOT_PASSWORD)
    await admin.must('POST', '/api/user/', { username: name, password: `${name}-password-1`, quota })
    const user = await login(nodes[node]!.url, name, `${name}-password-1`)
    const token = await user.must('POST', '/api/token/', remain === undefined ? { name: 'k', unlimited_quota: true } : { name: 'k', unlimited_quota: false, remain_quota: remain })
    const key = String(token.key).startsWith('sk-') ? String(token.key) : `sk-${token.key}`
    return { user, key, tokenId: Number(token.id) }
  }

  const balances = async (username: string) => {
    const [row] = await db`SELECT u.quota, u.used_quota, t.remain_quota, t.used_quota AS token_used FROM users u LEFT JOIN tokens t ON t.user_id = u.id WHERE u.username = ${username}`
    // int8 columns come back as strings from Bun's client
    return Object.fromEntries(Object.entries(row as Record<string, unknown>).map(([k, v]) => [k, Number(v)])) as { quota: number; used_quota: number; remain_quota: number; token_used: number }
  }
  const logged = async (username: string) => {
    const [row] = await db`SELECT count(*)::int AS n, coalesce(sum(quota), 0)::bigint AS q FROM logs WHERE type = 2 AND username = ${username}`
    return { rows: Number(row.n), quota: Number(row.q) }
  }

  test('1,000 concurrent requests against a balance for 100 serve exactly 100; logged charges equal the fall in both balances', async () => {
    const { key } = await payer('hundred', 100 * PER_CALL, 100 * PER_CALL)
    const answers = await Promise.all(Array.from({ length: 1_000 }, (_, i) => chat(urls()[i % 3]!, key).then(async (r) => ({ node: i % 3, status: r.status, text: await r.text() }))))
    const responses = answers.map((a) => a.status)
    // every one not served was refused for quota (403 at the reservation, or 401 once a node's copy of the key
    // shows it spent, as new-api answers): the first of any other kind, whole, if not
    const refusedForQuota = (a: { status: number; text: string }) => a.status === 403 || (a.status === 401 && a.text.includes('used up its quota'))
    expect(answers.find((a) => a.status !== 200 && !refusedForQuota(a))).toBeUndefined()
    expect(responses.filter((s) => s === 200).length).toBe(100)
    await within(5_000, async () => (await logged('hundred')).rows === 100, 'the 100 log rows are written')
    const b = await balances('hundred')
    expect(b).toEqual({ quota: 0, used_quota: 100 * PER_CALL, remain_quota: 0, token_used: 100 * PER_CALL })
    expect((await logged('hundred')).quota).toBe(100 * PER_CALL)
    const [holds] = await db`SELECT count(*)::int AS n FROM quota_holds`
    expect(holds.n).toBe(0)
  }, 120_000)

  test('an option changed through node 3 is in force on nodes 1 and 2 within 1 s; then an RPM limit of 30 admits exactly 30 of 60 across the three', async () => {
    const { key } = await payer('limited', 1_000_000_000)
    try {
      const admin3 = await login(nodes[2]!.url, 'root', ROOT_PASSWORD)
      await admin3.must('PUT', '/api/option/', { key: 'TokenRpmLimit', value: 30 })
      for (const node of nodes.slice(0, 2)) {
        const admin = await login(node.url, 'root', ROOT_PASSWORD)
        let seen: unknown
        const ms = await within(1_000, async () => (seen = (await admin.must('GET', '/api/option/')).find((o: { key: string }) => o.key === 'TokenRpmLimit')?.value) === 30, `TokenRpmLimit on ${node.name}`).catch((e) => {
          throw new Error(`${e.message}: it shows ${JSON.stringify(seen)}`)
        })
        console.log(`option in force on ${node.name} after ${ms.toFixed(0)} ms`)
      }
      const codes: number[] = []
      for (let round = 0; round < 10; round++) {
        codes.push(...(await Promise.all(Array.from({ length: 6 }, (_, i) => chat(urls()[i % 3]!, key).then(async (r) => (await r.arrayBuffer(), r.status))))))
      }
      expect(codes.filter((c) => c === 200)).toHaveLength(30)
      expect(codes.filter((c) => c === 429)).toHaveLength(30)
    } finally {
      // the later tests run unlimited, whatever happened here
      await root.must('PUT', '/api/option/', { key: 'TokenRpmLimit', value: 0 })
    }
  }, 60_000)

  test('a token deleted through node 1 is refused by nodes 2 and 3 within 1 s', async () => {
    const { user, key, tokenId } = await payer('deleter', 1_000_000_000)
    // nodes 2 and 3 have the key in memory
    for (const url of urls()) expect((await chat(url, key)).status).toBe(200)
    await user.must('DELETE', `/api/token/${tokenId}`)
    for (const node of nodes.slice(1)) {
      const ms = await within(1_000, async () => (await chat(node.url, key)).status === 401, `the deleted key refused by ${node.name}`)
      console.log(`deleted key refused by ${node.name} after ${ms.toFixed(0)} ms`)
    }
  }, 30_000)

  test('a channel disabled through node 2 gets no traffic from nodes 1 and 3 within 1 s', async () => {
    const { key } = await payer('router', 1_000_000_000)
    const [b] = await Promise.all([root.must('POST', '/api/channel/', { type: 1, name: 'b', key: 'sk-b', base_url: upstreamB.url, models: 'gpt-4o', group: 'default' })])
    // both channels serve, from every node (the new channel reached them all)
    await within(2_000, async () => {
      const before = upstreamB.requests.length
      await Promise.all(Array.from({ length: 12 }, (_, i) => chat(urls()[i % 3]!, key).then((r) => r.arrayBuffer())))
      return upstreamB.requests.length > before
    }, 'channel b gets traffic')
    const channelA = (await root.must('GET', '/api/channel/?p=1&page_size=50')).items.find((c: any) => c.name === 'a')
    expect(channelA).toBeDefined()
    const admin2 = await login(nodes[1]!.url, 'root', ROOT_PASSWORD)
    await admin2.must('PUT', '/api/channel/', { id: channelA.id, status: 2 })
    await Bun.sleep(1_000)
    const before = upstreamA.requests.length
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => chat(urls()[i % 2 === 0 ? 0 : 2]!, key).then(async (r) => ({ status: r.status, text: await r.text() }))))
    expect(answers.find((a) => a.status !== 200)).toBeUndefined()
    expect(upstreamA.requests.length - before).toBe(0)
    expect(b).toBeDefined()
  }, 30_000)

  test('kill -9 of one node under load: the others keep serving; its holds come back within the lease; balances equal the logged charges exactly', async () => {
    const quota = 1_000_000_000
    const { key } = await payer('survivor', quota, quota)
    for (const u of [upstreamA, upstreamB]) u.setBehavior({ text: 'ok', usage: { input: 10, output: 10 }, firstByteDelayMs: 150 })
    const victim = nodes[2]!
    const servedByVictim: number[] = []
    const afterKill = { ok: 0, failed: 0 }
    let victimInFlight = 0
    let killed = false
    let stop = false
    const worker = async (w: number) => {
      for (let i = 0; !stop; i++) {
        const url = urls()[(w + i) % 3]!
        if (killed && url === victim.url) continue
        if (url === victim.url) victimInFlight++
        const ok = await chat(url, key).then(async (r) => (await r.arrayBuffer(), r.status === 200), () => false)
        if (url === victim.url) victimInFlight--
        if (url === victim.url && ok) servedByVictim.push(performance.now())
        if (killed && url !== victim.url) ok ? afterKill.ok++ : afterKill.failed++
      }
    }
    const workers = Array.from({ length: 12 }, (_, w) => worker(w))
    await within(15_000, async () => servedByVictim.length >= 30, 'the victim serves')
    // killed with requests in flight: their holds are what the lease must give back
    await within(5_000, async () => victimInFlight >= 3, 'requests in flight on the victim')
    const killedAt = performance.now()
    // a request the victim settled just before dying may not have reached its client: counted as in flight
    const inFlightAtKill = victimInFlight
    victim.proc.kill('SIGKILL')
    killed = true
    await victim.proc.exited
    await within(15_000, async () => afterKill.ok > 10, 'the live nodes keep serving after the kill')
    stop = true
    await Promise.all(workers)
    for (const u of [upstreamA, upstreamB]) u.setBehavior({ text: 'ok', usage: { input: 10, output: 10 } })
    expect(afterKill.failed).toBe(0)
    expect(afterKill.ok).toBeGreaterThan(10)

    // the victim's holds lapse after the lease and a live node's sweep gives them back
    // the live nodes settled theirs; what is left is the victim's, kept until its lease runs out
    const holdsLeft = async () => Number((await db`SELECT count(*)::int AS n FROM quota_holds`)[0].n)
    expect(await holdsLeft()).toBeGreaterThan(0)
    await within((HOLD_TTL_SECONDS + 15) * 1000, async () => (await holdsLeft()) === 0, 'every hold released')
    const releasedAfter = (performance.now() - killedAt) / 1000
    expect(releasedAfter).toBeGreaterThan(HOLD_TTL_SECONDS - 1.5) // not before the lease ran out
    console.log(`the dead node's holds released ${releasedAfter.toFixed(1)} s after the kill (lease ${HOLD_TTL_SECONDS} s, swept every ${HOLD_TTL_SECONDS / 4} s)`)
    // the lease plus one sweep (a quarter of the TTL) is 5 s unloaded; 4 leases is a hang detector with a loaded
    // machine's slack (never released would be forever); the order that matters is the lower bound above
    expect(releasedAfter).toBeLessThan(HOLD_TTL_SECONDS * 4)
    await Bun.sleep(500) // the live nodes' last log batches
    const b = await balances('survivor')
    const logs = await logged('survivor')
    const unlogged = quota - b.quota - logs.quota
    const window = servedByVictim.filter((at) => at >= killedAt - FLUSH_WINDOW_MS).length
    console.log(`logged ${logs.rows} (${logs.quota}); balance fell ${quota - b.quota}; charged without a row: ${unlogged / PER_CALL} (the victim answered ${window} in its last ${FLUSH_WINDOW_MS} ms, ${inFlightAtKill} in flight)`)
    // a charge reaches PostgreSQL with its log row, in one transaction: the dead node's last batch lost both, and
    // the lease gave those reservations back, so nothing is charged without its row
    expect(unlogged).toBe(0)
    expect(quota - b.remain_quota).toBe(quota - b.quota)
    expect(b.used_quota).toBe(quota - b.quota)
  }, 120_000)
})
