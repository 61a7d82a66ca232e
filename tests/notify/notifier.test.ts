import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { createCoordination, type Coordination } from '../../src/coord'
import type { NotifyRecipient } from '../../src/db/repos/notify-settings'
import { createNotifier } from '../../src/notify/notifier'
import { createOutbound } from '../../src/outbound/fetch'
import { endpointMap, parseProviderEndpoints } from '../../src/outbound/endpoints'
import { hasRedis, startRedis, type RedisServer } from '../helpers/redis-server'
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver'

/**
 * The notifier alone: an event seen by two nodes (two coordinations on one Redis) is sent once; the per-user hourly
 * limit; a failing receiver is retried a bounded number of times, a 4xx is not. Recipients come from a stub.
 */
let receiver: WebhookReceiver
const HOST = 'hooks.example.test'
const warnings: string[] = []

const root = (path: string): NotifyRecipient => ({
  userId: 1,
  email: '',
  settings: { userId: 1, notifyType: 'webhook', quotaWarningThreshold: 0, webhookUrl: `https://${HOST}${path}`, webhookSecret: '', notificationEmail: '', updatedTime: 0 },
})

function notifierOn(coord: Coordination, path: string, options: Record<string, unknown> = {}, retryDelaysMs = [5, 5]) {
  const values: Record<string, unknown> = { SystemName: 'Tollgate', NotifyLimitPerHour: 2, ChannelBalanceWarningThreshold: 0, QuotaRemindThreshold: 0, ...options }
  return createNotifier({
    repos: {
      notifySettings: { get: async () => undefined, put: async () => undefined!, recipientsAtRole: async () => [root(path)] },
      users: {} as never,
    },
    mailer: () => ({ configured: () => false, send: async () => {} }),
    outbound: createOutbound({ allowPrivate: () => false, endpoints: endpointMap(parseProviderEndpoints(JSON.stringify({ [HOST]: receiver.url }))) }),
    coord,
    options: { get: <T>(name: string) => values[name] as T },
    cryptoSecret: 'c'.repeat(32),
    warn: (message) => warnings.push(message),
    retryDelaysMs,
  })
}

beforeAll(() => {
  receiver = startWebhookReceiver()
})
afterAll(() => receiver.stop())
beforeEach(() => {
  receiver.reset()
  warnings.length = 0
})

describe.skipIf(!hasRedis())('across nodes', () => {
  let redis: RedisServer
  beforeAll(async () => {
    redis = await startRedis()
  })
  afterAll(() => redis.stop())

  test('a channel disabled as two nodes see it: one notification', async () => {
    const [a, b] = await Promise.all([createCoordination({ url: redis.url }), createCoordination({ url: redis.url })])
    const nodeA = notifierOn(a, '/both')
    const nodeB = notifierOn(b, '/both')
    nodeA.channelDisabled(7, 'shared', '3 consecutive failures')
    nodeB.channelDisabled(7, 'shared', '3 consecutive failures')
    await Promise.all([nodeA.idle(), nodeB.idle()])
    expect(receiver.received.map((h) => h.json.type)).toEqual(['channel_update'])
    await Promise.all([a.close(), b.close()])
  })
})

describe('limits and retries', () => {
  test('NotifyLimitPerHour: a third event of a kind within the hour is dropped and logged', async () => {
    const coord = await createCoordination({})
    const notifier = notifierOn(coord, '/limited')
    for (const id of [1, 2, 3]) notifier.channelDisabled(id, `c${id}`, 'down')
    await notifier.idle()
    expect(receiver.received.map((h) => (h.json.values as unknown[])[0])).toEqual([1, 2])
    expect(warnings.some((w) => w.includes('NotifyLimitPerHour'))).toBe(true)
    await coord.close()
  })

  test('a 5xx is retried (at most three attempts); a 4xx is not', async () => {
    const coord = await createCoordination({})
    const notifier = notifierOn(coord, '/flaky', { NotifyLimitPerHour: 10 })
    receiver.answer(503, 502)
    notifier.channelDisabled(11, 'flaky', 'down')
    await notifier.idle()
    expect(receiver.received.map((h) => h.path)).toEqual(['/flaky', '/flaky', '/flaky'])
    receiver.reset()
    receiver.answer(503, 503, 503, 503)
    notifier.channelDisabled(12, 'dead', 'down')
    await notifier.idle()
    expect(receiver.received).toHaveLength(3)
    expect(warnings.at(-1)).toContain('answered 503')
    receiver.reset()
    receiver.answer(410)
    notifier.channelDisabled(13, 'gone', 'down')
    await notifier.idle()
    expect(receiver.received).toHaveLength(1)
    await coord.close()
  })
})
