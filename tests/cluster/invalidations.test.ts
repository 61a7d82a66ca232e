/**
 * The one subscriber (src/cluster/invalidations.ts), on two coordination instances sharing one in-memory store (as
 * two nodes share Redis): what each topic's message drops or reloads, what a payload of null does, that a node's
 * own messages are skipped, and that messages arriving before the caches are attached are applied once they are.
 */
import { expect, test } from 'bun:test'
import { subscribeInvalidations, type CacheTargets } from '../../src/cluster/invalidations'
import { keyPayload, sessionPayload, Topic } from '../../src/cluster/topics'
import { createLocalCoordination } from '../../src/coord/local'
import { createLocalStore } from '../../src/coord/local-store'
import { until } from '../helpers/wait'

function recorder() {
  const calls: string[] = []
  const note = (what: string) => (...args: unknown[]) => void calls.push(`${what}(${args.map((a) => JSON.stringify(a)).join(',')})`)
  const targets: CacheTargets = {
    users: { forget: note('users.forget'), forgetAll: note('users.forgetAll') },
    tokens: { forget: note('tokens.forget'), forgetUser: note('tokens.forgetUser'), forgetAll: note('tokens.forgetAll') },
    plans: { forgetHolder: note('plans.forgetHolder') },
    channels: { reload: async (ids) => note('channels.reload')(ids), get: (id) => (id === 7 ? { keys: ['sk-one', 'sk-two'] } : undefined) },
    keys: { applyKeyChange: note('keys.apply') },
    options: { reload: async () => note('options.reload')() },
    sessions: { remember: note('sessions.remember'), reload: async () => note('sessions.reload')() },
  }
  return { calls, targets }
}

/** a moment for a message that must NOT arrive (a node's own, one before attach) to show up if it were going to */
const settle = () => Bun.sleep(5)

test('each topic drops or reloads what its message names; a node skips its own messages', async () => {
  const store = createLocalStore()
  const [here, there] = [createLocalCoordination({ store }), createLocalCoordination({ store })]
  const { calls, targets } = recorder()
  ;(await subscribeInvalidations(here)).attach(targets)
  await there.publish(Topic.users, '3,4')
  await there.publish(Topic.tokens, '9')
  await there.publish(Topic.channels, '1,2')
  await there.publish(Topic.options, 'SystemName')
  await there.publish(Topic.sessions, sessionPayload('s-1', 2_000_000_000))
  await there.publish(Topic.keys, keyPayload(7, 'sk-two', true))
  await there.publish(Topic.keys, keyPayload(7, 'sk-unknown', true)) // not a key of the channel: nothing
  await there.publish(Topic.tokens, 'x,-1,0') // no ids in it: nothing
  await here.publish(Topic.users, '5') // its own: already refreshed when it wrote
  await settle()
  expect(calls).toEqual([
    'users.forget(3)',
    'tokens.forgetUser(3)',
    'plans.forgetHolder(3)',
    'users.forget(4)',
    'tokens.forgetUser(4)',
    'plans.forgetHolder(4)',
    'tokens.forget(9)',
    'channels.reload([1,2])',
    'options.reload()',
    'sessions.remember("s-1",2000000000)',
    'keys.apply(7,"sk-two",true)',
  ])
  await here.close()
  await there.close()
})

test('a payload of null (a missed message) drops or reloads everything of its kind', async () => {
  const store = createLocalStore()
  const [here, there] = [createLocalCoordination({ store }), createLocalCoordination({ store })]
  const { calls, targets } = recorder()
  ;(await subscribeInvalidations(here)).attach(targets)
  for (const topic of Object.values(Topic)) await there.publish(topic)
  await until(() => calls.length >= 7, { what: 'seven reloads' })
  expect(calls).toEqual(['users.forgetAll()', 'tokens.forgetAll()', 'plans.forgetHolder()', 'tokens.forgetAll()', 'channels.reload()', 'options.reload()', 'sessions.reload()'])
  await here.close()
  await there.close()
})

test('messages that arrive before the caches are attached are applied once they are', async () => {
  const store = createLocalStore()
  const [here, there] = [createLocalCoordination({ store }), createLocalCoordination({ store })]
  const { calls, targets } = recorder()
  const subscription = await subscribeInvalidations(here)
  await there.publish(Topic.channels, '8')
  await settle()
  expect(calls).toEqual([])
  subscription.attach(targets)
  await until(() => calls.length > 0, { what: 'the held message applied' })
  expect(calls).toEqual(['channels.reload([8])'])
  await here.close()
  await there.close()
})
