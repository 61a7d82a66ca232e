import { afterAll, beforeAll, expect, test } from 'bun:test'
import { call, startTestApp, type TestApp } from '../../helpers/test-app'
import { userHeaders } from './helpers'

let app: TestApp
let admin: Record<string, string>
beforeAll(async () => {
  app = await startTestApp()
  admin = await userHeaders(app)
})
afterAll(() => app.stop())

async function make(name: string, extra: Record<string, unknown> = {}): Promise<number> {
  const res = await call(app, 'POST', '/api/channel/', { type: 1, name, key: `sk-${name}`, models: 'gpt-4o', ...extra }, admin)
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body.data.id
}
const row = async (id: number) => (await app.deps.repos.channels.findById(id))!
const abilities = (id: number) => app.deps.repos.channels.abilities(id)

test('batch delete says how many went; abilities go with them', async () => {
  const ids = [await make('d1'), await make('d2')]
  const res = await call(app, 'POST', '/api/channel/batch', { ids: [...ids, 999999] }, admin)
  expect(res.status).toBe(200)
  expect(res.body.data).toBe(2)
  for (const id of ids) {
    expect(await row(id)).toBeUndefined()
    expect(await abilities(id)).toEqual([])
  }
  expect((await call(app, 'POST', '/api/channel/batch', { ids: [] }, admin)).status).toBe(400)
})

test('batch tag sets the tag on channels and their abilities', async () => {
  const ids = [await make('t1'), await make('t2')]
  const res = await call(app, 'POST', '/api/channel/batch/tag', { ids, tag: 'team-a' }, admin)
  expect(res.body.data).toBe(2)
  for (const id of ids) {
    expect((await row(id)).tag).toBe('team-a')
    expect((await abilities(id)).every((a) => a.tag === 'team-a')).toBe(true)
  }
})

test('tag disabled / enabled flip every channel with the tag and their abilities; count is what changed', async () => {
  const a = await make('e1', { tag: 'flip' })
  const b = await make('e2', { tag: 'flip', status: 2 })
  const other = await make('e3', { tag: 'other' })

  const off = await call(app, 'POST', '/api/channel/tag/disabled', { tag: 'flip' }, admin)
  expect(off.status).toBe(200)
  expect(off.body.data).toBe(1) // b was already disabled
  for (const id of [a, b]) {
    expect((await row(id)).status).toBe(2)
    expect((await abilities(id)).every((x) => !x.enabled)).toBe(true)
  }
  expect((await row(other)).status).toBe(1)
  expect(await app.deps.routing.planRoute('default', 'gpt-4o').then((c) => c.map((x) => x.channel.id))).not.toContain(a)

  const on = await call(app, 'POST', '/api/channel/tag/enabled', { tag: 'flip' }, admin)
  expect(on.body.data).toBe(2)
  for (const id of [a, b]) {
    expect((await row(id)).status).toBe(1)
    expect((await abilities(id)).every((x) => x.enabled)).toBe(true)
  }
  expect(await app.deps.routing.planRoute('default', 'gpt-4o').then((c) => c.map((x) => x.channel.id))).toContain(a)

  for (const body of [{}, { tag: '' }, { tag: '  ' }, { tag: null }]) {
    for (const path of ['/api/channel/tag/enabled', '/api/channel/tag/disabled']) {
      const res = await call(app, 'POST', path, body, admin)
      expect(res.status, `${path} ${JSON.stringify(body)}`).toBe(400)
      expect(res.body.message).toMatch(/tag/)
    }
  }
  expect((await call(app, 'POST', '/api/channel/tag/enabled', { tag: 'nobody' }, admin)).body.data).toBe(0)
})

test('tag edit changes every channel with the tag, abilities included', async () => {
  const ids = [await make('g1', { tag: 'edit-me' }), await make('g2', { tag: 'edit-me' })]
  const untouched = await make('g3', { tag: 'keep' })
  const res = await call(
    app,
    'PUT',
    '/api/channel/tag',
    { tag: 'edit-me', new_tag: 'edited', priority: 9, weight: 3, models: 'm1,m2', groups: 'vip', model_mapping: '{"m1":"up-m1"}' },
    admin,
  )
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  expect(res.body.data).toBe(2)
  for (const id of ids) {
    expect(await row(id)).toMatchObject({ tag: 'edited', priority: 9, weight: 3, models: 'm1,m2', group: 'vip', modelMapping: '{"m1":"up-m1"}' })
    expect((await abilities(id)).map((x) => `${x.group}|${x.model}|${x.priority}|${x.weight}|${x.tag}`).sort()).toEqual(['vip|m1|9|3|edited', 'vip|m2|9|3|edited'])
  }
  expect(await row(untouched)).toMatchObject({ tag: 'keep', priority: 0 })
  const plan = await app.deps.routing.planRoute('vip', 'm1')
  expect(plan.map((c) => c.upstreamModel)).toEqual(['up-m1', 'up-m1'])

  expect((await call(app, 'PUT', '/api/channel/tag', { priority: 1 }, admin)).status).toBe(400)
  expect((await call(app, 'PUT', '/api/channel/tag', { tag: 'edited' }, admin)).status).toBe(400)
  const cycle = await call(app, 'PUT', '/api/channel/tag', { tag: 'edited', model_mapping: { x: 'y', y: 'x' } }, admin)
  expect(cycle.status).toBe(400)
  expect(cycle.body.message).toMatch(/cycle/)
})
