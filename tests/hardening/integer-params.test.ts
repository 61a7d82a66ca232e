import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { login } from '../helpers/accounts'
import { call, startTestApp, type TestApp } from '../helpers/test-app'

/**
 * Issue #13.1: every integer in a query string or a path is range checked as text, before it reaches SQLite:
 * out of range (or not a plain decimal integer) is a 400 whose message names the parameter. Before the fix
 * `?p=99999999999999999999` and `?p=1e20` were 500s (SQLite "datatype mismatch" on the offset),
 * `?p=9007199254740993` answered page 9007199254740992, and the 400s that did come said "invalid property".
 */
let app: TestApp
let root: string
beforeAll(async () => {
  app = await startTestApp()
  root = await login(app)
})
afterAll(() => app.stop())

const get = (path: string, method = 'GET') => call(app, method, path, undefined, { cookie: root })

const PAGED = [
  '/api/token/',
  '/api/token/search',
  '/api/user/',
  '/api/user/search',
  '/api/channel/',
  '/api/channel/search',
  '/api/log/',
  '/api/log/self',
  '/api/log/stat',
  '/api/log/self/stat',
  '/api/redemption/',
  '/api/redemption/search',
]

function expectNamed(res: { status: number; body: any }, param: string) {
  expect(res.status).toBe(400)
  expect(res.body).toEqual({ success: false, message: expect.stringContaining(`"${param}"`), data: expect.objectContaining({ code: expect.any(String) }) })
}

describe('page numbers and sizes', () => {
  for (const path of PAGED) {
    test(`${path}: huge, exponent, unsafe and non-decimal pages are 400 naming "p"`, async () => {
      for (const p of ['99999999999999999999', '1e20', '9007199254740993', '1000001', '-1', '0x10', '1.5', '%201', '']) {
        const res = await get(`${path}?p=${p}`)
        if (res.status !== 400) throw new Error(`${path}?p=${p} answered ${res.status} ${JSON.stringify(res.body)}`)
        expectNamed(res, 'p')
      }
      for (const size of ['0', '101', '1e20', '99999999999999999999']) expectNamed(await get(`${path}?page_size=${size}`), 'page_size')
    })
  }

  test('the bounds themselves are accepted: p 0 (read as 1) to 1,000,000, page_size 1 to 100', async () => {
    const last = await get('/api/token/?p=1000000&page_size=100')
    expect(last.status).toBe(200)
    expect(last.body.data).toMatchObject({ items: [], page: 1_000_000, page_size: 100 })
    expect((await get('/api/user/?p=0&page_size=1')).body.data).toMatchObject({ page: 1, page_size: 1 })
    expect((await get('/api/log/?p=1000000&page_size=100')).status).toBe(200)
  })
})

describe('ids in paths', () => {
  const routes = [
    ['GET', '/api/token/'],
    ['DELETE', '/api/token/'],
    ['GET', '/api/user/'],
    ['DELETE', '/api/user/'],
    ['GET', '/api/channel/'],
    ['DELETE', '/api/channel/'],
    ['GET', '/api/channel/test/'],
    ['GET', '/api/channel/fetch_models/'],
    ['GET', '/api/redemption/'],
    ['DELETE', '/api/redemption/'],
  ] as const
  for (const [method, prefix] of routes) {
    test(`${method} ${prefix}:id: out of range or not an integer is 400 naming "id"; the largest safe id is a 404`, async () => {
      for (const id of ['99999999999999999999', '9007199254740992', '1e3', '0', '-5', '0x1f', 'abc']) {
        const res = await get(`${prefix}${id}`, method)
        if (res.status !== 400) throw new Error(`${method} ${prefix}${id} answered ${res.status} ${JSON.stringify(res.body)}`)
        expectNamed(res, 'id')
      }
      const missing = await get(`${prefix}${Number.MAX_SAFE_INTEGER}`, method)
      expect(missing.status).toBe(404)
    })
  }
})

describe('timestamps and filters', () => {
  const timeRoutes = ['/api/log/', '/api/log/self', '/api/log/stat', '/api/log/self/stat', '/api/data/', '/api/data/self']
  for (const path of timeRoutes) {
    test(`${path}: timestamps beyond 9999-12-31, negative or in exponent form are 400 naming the parameter`, async () => {
      for (const name of ['start_timestamp', 'end_timestamp']) {
        for (const value of ['253402300800', '1e20', '99999999999999999999', '-1', '1700000000.5']) expectNamed(await get(`${path}?${name}=${value}`), name)
      }
    })
  }

  test('log and channel filters: type, channel, status are range checked', async () => {
    for (const value of ['6', '1e20', '-1']) expectNamed(await get(`/api/log/?type=${value}`), 'type')
    for (const value of ['99999999999999999999', '1e20', '-1']) expectNamed(await get(`/api/log/?channel=${value}`), 'channel')
    for (const value of ['10001', '1e20', '-1']) expectNamed(await get(`/api/channel/?type=${value}`), 'type')
    for (const value of ['4', '1e20', '99999999999999999999', 'sleeping']) expectNamed(await get(`/api/channel/?status=${value}`), 'status')
    expect((await get('/api/channel/?status=3&type=14')).status).toBe(200)
    expect((await get('/api/channel/?status=disabled')).status).toBe(200)
    expect((await get('/api/log/?channel=0&type=0')).status).toBe(200)
  })
})
