import { afterAll, beforeAll, expect, test } from 'bun:test'
import { idleStep, startIdleCollector } from '../../src/launch/idle-collector'
import { requestsArrived } from '../../src/plugins/request-context'
import { startTestApp, type TestApp } from '../helpers/test-app'
import { until } from '../helpers/wait'

function world() {
  const state = { arrived: 0, inFlight: 0, collections: 0, afterStartUp: [] as boolean[] }
  const collect = (afterStartUp: boolean) => {
    state.collections++
    state.afterStartUp.push(afterStartUp)
  }
  const step = idleStep({ arrived: () => state.arrived, inFlight: () => state.inFlight, collect })
  return { state, step }
}

// Bun.shrink() (heap pages handed back) discards compiled code as well: once after start-up, never after traffic
test('only the first collection is the one after start-up', () => {
  const { state, step } = world()
  step()
  for (let burst = 0; burst < 3; burst++) {
    state.arrived += 2
    step()
    step()
  }
  expect(state.afterStartUp).toEqual([true, false, false, false])
})

test('start-up garbage is collected after the first quiet interval, and only once', () => {
  const { state, step } = world()
  expect(step()).toBe(true)
  expect([step(), step(), step()]).toEqual([false, false, false])
  expect(state.collections).toBe(1)
})

test('traffic defers the collection until a whole interval passes with no new request', () => {
  const { state, step } = world()
  step() // start-up's
  state.arrived += 5
  expect(step()).toBe(false) // requests arrived during this interval
  state.arrived += 1
  expect(step()).toBe(false)
  expect(step()).toBe(true) // quiet for a whole interval
  expect(step()).toBe(false)
  expect(state.collections).toBe(2)
})

test('an open stream keeps the gateway busy: no collection until it ends', () => {
  const { state, step } = world()
  step()
  state.arrived += 1
  state.inFlight = 1
  expect([step(), step(), step()]).toEqual([false, false, false])
  state.inFlight = 0
  expect(step()).toBe(true)
  expect(state.collections).toBe(2)
})

test('the timer runs the steps and stops', async () => {
  let collections = 0
  const collector = startIdleCollector({ arrived: () => 0, inFlight: () => 0, collect: () => void collections++, quietMs: 5 })
  await until(() => collections > 0, { what: 'a collection' })
  collector.stop()
  expect(collections).toBe(1)
})

test("Bun counts a streaming answer as pending until its last byte (what the collector's inFlight reads)", async () => {
  let release!: () => void
  const released = new Promise<void>((resolve) => (release = resolve))
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch: () =>
      new Response(
        new ReadableStream({
          async start(controller) {
            controller.enqueue(new TextEncoder().encode('data: first\n\n'))
            await released
            controller.enqueue(new TextEncoder().encode('data: last\n\n'))
            controller.close()
          },
        }),
        { headers: { 'content-type': 'text/event-stream' } },
      ),
  })
  try {
    const response = await fetch(`http://127.0.0.1:${server.port}/`)
    const reader = response.body!.getReader()
    await reader.read()
    expect(server.pendingRequests).toBe(1)
    release()
    let text = ''
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text += new TextDecoder().decode(chunk.value)
    expect(text).toContain('last')
    await until(() => server.pendingRequests === 0, { what: 'no request pending' })
    expect(server.pendingRequests).toBe(0)
  } finally {
    server.stop(true)
  }
})

let app: TestApp
beforeAll(async () => {
  app = await startTestApp()
})
afterAll(() => app.stop())

test('every request that reaches the app is counted, unknown routes and refusals included', async () => {
  const before = requestsArrived()
  expect((await app.fetch('/api/status')).status).toBe(200)
  expect((await app.fetch('/api/no/such/route')).status).toBe(404) // other paths are the console's page
  expect((await app.fetch('/v1/chat/completions', { method: 'POST', body: '{}' })).status).toBe(401)
  expect(requestsArrived() - before).toBe(3)
})
