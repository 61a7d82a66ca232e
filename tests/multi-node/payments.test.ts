/**
 * Credited exactly once on any node: two gateway processes on one PostgreSQL and Redis, 100 EPay orders, each
 * order's signed notify sent to both nodes at the same moment. Exactly 100 credits (one per order), each order
 * paid once, one top-up log row each; then every notify again, to both: nothing more.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { hasPostgres, startPostgres, type PgServer } from '../helpers/pg-server'
import { hasRedis, startRedis, type RedisServer } from '../helpers/redis-server'
import { sign, startFakeEpay, type FakeEpay } from '../helpers/fake-payments/epay'
import { login, ROOT_PASSWORD, startCluster, type Api, type Node } from './cluster'

const describeCluster = hasPostgres() && hasRedis() ? describe : describe.skip
const ORDERS = 100
const QUOTA_PER_ORDER = 10 * 500_000

describeCluster('the same EPay notify to two nodes at once', () => {
  let pg: PgServer
  let redis: RedisServer
  let epay: FakeEpay
  let nodes: Node[] = []
  let root: Api
  let payer: Api

  beforeAll(async () => {
    ;[pg, redis] = await Promise.all([startPostgres(), startRedis()])
    epay = startFakeEpay()
    nodes = (await startCluster(pg, redis.url, 2)).nodes
    root = await login(nodes[0]!.url, 'root', ROOT_PASSWORD)
    for (const [key, value] of Object.entries({ PayAddress: epay.url, EpayId: epay.pid, EpayKey: epay.key, TopUpPendingLimit: 0, ServerAddress: nodes[0]!.url })) {
      await root.must('PUT', '/api/option/', { key, value })
    }
    await root.must('POST', '/api/user/', { username: 'payer', password: 'payer-password-1', quota: 0 })
    payer = await login(nodes[0]!.url, 'payer', 'payer-password-1')
  }, 120_000)
  afterAll(async () => {
    for (const node of nodes) await node.stop()
    epay?.stop()
    await redis?.stop()
    await pg?.stop()
  })

  const notifyBoth = (query: string) => Promise.all(nodes.map((node) => fetch(`${node.url}/api/user/epay/notify?${query}`).then((r) => r.text())))

  test(`${ORDERS} orders, each notify to both nodes at once: ${ORDERS} credits, none twice`, async () => {
    const queries: string[] = []
    for (let i = 0; i < ORDERS; i++) {
      const { params } = await payer.must('POST', '/api/user/pay', { amount: 10, payment_method: 'alipay' })
      const notify: Record<string, string> = { pid: epay.pid, trade_no: `EP${i}`, out_trade_no: params.out_trade_no, type: 'alipay', name: params.name, money: params.money, trade_status: 'TRADE_SUCCESS' }
      notify.sign = sign(notify, epay.key)
      notify.sign_type = 'MD5'
      queries.push(new URLSearchParams(notify).toString())
    }
    const answers = await Promise.all(queries.map(notifyBoth))
    // both answer success: one credited, the other found it already paid
    expect(answers.flat().filter((a) => a === 'success')).toHaveLength(ORDERS * 2)
    const self = await payer.must('GET', '/api/user/self')
    expect(self.quota).toBe(ORDERS * QUOTA_PER_ORDER)
    const paid = await root.must('GET', '/api/user/topup?status=success&page_size=100')
    expect(paid.total).toBe(ORDERS)
    // and again, everything to both: nothing more
    await Promise.all(queries.map(notifyBoth))
    expect((await payer.must('GET', '/api/user/self')).quota).toBe(ORDERS * QUOTA_PER_ORDER)
    // the other node reads the same balance
    const onSecond = await login(nodes[1]!.url, 'payer', 'payer-password-1')
    expect((await onSecond.must('GET', '/api/user/self')).quota).toBe(ORDERS * QUOTA_PER_ORDER)
  }, 180_000)
})
