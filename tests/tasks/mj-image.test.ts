import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Role } from '../../src/db/repos/user-roles'
import { addUser } from '../helpers/accounts'
import { fakeMjImage } from '../helpers/fake-upstreams/midjourney-proxy'
import { startTaskEnv } from './env'

/** `GET /mj/image/{id}` (new-api's route) and `MjForwardUrlEnabled`: a finished task's image through the gateway. */

let e: Awaited<ReturnType<typeof startTaskEnv>>
beforeAll(async () => {
  e = await startTaskEnv({ mjHostsImages: true })
})
afterAll(async () => {
  await e.stop()
})

const get = (path: string, headers: Record<string, string> = { 'mj-api-secret': e.env.key }) => e.env.app.fetch(path, { headers })

/** An imagine of the env's user, polled to SUCCESS. */
async function finished(prompt: string): Promise<string> {
  const res = await e.env.app.fetch('/mj/submit/imagine', { method: 'POST', headers: { 'mj-api-secret': e.env.key, 'content-type': 'application/json' }, body: JSON.stringify({ prompt }) })
  const id = ((await res.json()) as { result: string }).result
  await e.pollRound()
  await e.pollRound()
  return id
}

describe('GET /mj/image/{id}', () => {
  test("the owner's key (mj-api-secret or Bearer, under a mode too) gets the image bytes from the upstream's link", async () => {
    const id = await finished('a red fox')
    for (const [path, headers] of [
      [`/mj/image/${id}`, { 'mj-api-secret': e.env.key }],
      [`/mj/image/${id}`, { authorization: `Bearer ${e.env.key}` }],
      [`/mj-fast/mj/image/${id}`, { 'mj-api-secret': e.env.key }],
    ] as const) {
      const res = await get(path, headers)
      expect(res.status, path).toBe(200)
      expect(res.headers.get('content-type')).toBe('image/png')
      expect(res.headers.get('x-content-type-options')).toBe('nosniff')
      expect(new Uint8Array(await res.arrayBuffer())).toEqual(fakeMjImage(id))
    }
  })

  test("another user's key and an unknown id are the same 404; no key is a 401; an admin's key sees any task", async () => {
    const id = await finished('a quiet lake')
    const stranger = await e.env.newKey({}, await addUser(e.env.app, { username: 'stranger', quota: 1000 }))
    const theirs = await get(`/mj/image/${id}`, { 'mj-api-secret': stranger })
    expect(theirs.status).toBe(404)
    expect(await theirs.json()).toMatchObject({ code: 4, type: 'task_not_found', result: null })
    expect((await get('/mj/image/1700000000999')).status).toBe(404)
    expect((await get(`/mj/image/${id}`, {})).status).toBe(401)
    const admin = await e.env.newKey({}, await addUser(e.env.app, { username: 'mj-admin', quota: 1000, role: Role.admin }))
    const seen = await get(`/mj/image/${id}`, { 'mj-api-secret': admin })
    expect(seen.status).toBe(200)
    expect(new Uint8Array(await seen.arrayBuffer())).toEqual(fakeMjImage(id))
  })

  test('a task without an image yet is a 404 image_not_ready; a link that serves no image is a 502, its URL not shown', async () => {
    const res = await e.env.app.fetch('/mj/submit/imagine', { method: 'POST', headers: { 'mj-api-secret': e.env.key, 'content-type': 'application/json' }, body: JSON.stringify({ prompt: 'pending' }) })
    const pending = ((await res.json()) as { result: string }).result
    const early = await get(`/mj/image/${pending}`)
    expect(early.status).toBe(404)
    expect(((await early.json()) as { type: string }).type).toBe('image_not_ready')
    const html = await finished('an html page')
    const page = await get(`/mj/image/${html}`)
    expect(page.status).toBe(502)
    const body = (await page.json()) as { type: string; description: string }
    expect(body.type).toBe('image_fetch_failed')
    expect(body.description).toContain('text/html')
    expect(body.description).not.toContain('127.0.0.1')
  })

  test('an image past 32 MB is cut there, not relayed whole', async () => {
    const id = await finished('a huge mural')
    const res = await get(`/mj/image/${id}`)
    expect(res.status).toBe(200)
    const reader = res.body!.getReader()
    let received = 0
    const ended = await (async () => {
      for (;;) {
        const { done, value } = await reader.read()
        if (done) return 'done'
        received += value.byteLength
      }
    })().catch(() => 'broken')
    expect(ended).toBe('broken')
    expect(received).toBeLessThanOrEqual(32 * 1024 * 1024)
  })
})

describe('MjForwardUrlEnabled', () => {
  test("on: fetch and list-by-condition answer the gateway's /mj/image/{id} (ServerAddress, else the address called); off: the upstream's link", async () => {
    const id = await finished('a lighthouse')
    const fetchUrl = async () => ((await (await get(`/mj/task/${id}/fetch`)).json()) as { imageUrl: string }).imageUrl
    expect(await fetchUrl()).toBe(`${e.mj.url}/images/${id}.png`)
    await e.env.app.deps.options.set('MjForwardUrlEnabled', true)
    expect(await fetchUrl()).toBe(`${e.env.app.url}/mj/image/${id}`)
    await e.env.app.deps.options.set('ServerAddress', 'https://gw.example.com')
    expect(await fetchUrl()).toBe(`https://gw.example.com/mj/image/${id}`)
    const listed = await e.env.app.fetch('/mj/task/list-by-condition', { method: 'POST', headers: { 'mj-api-secret': e.env.key, 'content-type': 'application/json' }, body: JSON.stringify({ ids: [id] }) })
    expect(((await listed.json()) as { imageUrl: string }[])[0]!.imageUrl).toBe(`https://gw.example.com/mj/image/${id}`)
    await e.env.app.deps.options.set('MjForwardUrlEnabled', false)
    await e.env.app.deps.options.set('ServerAddress', '')
  })
})
