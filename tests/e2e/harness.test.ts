/**
 * The e2e harness itself: the binary starts from an empty data dir and serves loopback only, the page watch
 * catches what it must (and lets expected 4xx lines through), screenshots land in artifacts/, and the fake
 * upstream answers a channel of type 1 and 8 through the compiled binary, streamed and not.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { existsSync, readdirSync } from 'node:fs'
import type { Browser } from 'playwright-core'
import { until } from '../helpers/wait'
import {
  apiLogin, browserAvailable, E2E_TIMEOUT, isExternal, sharedBrowser, openAIChannel, openPage, screenshot, setColorScheme,
  setupRoot, setViewport, startFakeOpenAI, startGateway, type FakeUpstream, type Gateway,
} from './harness'

const ROOT = { username: 'root', password: 'e2e-root-password-1' }

test('isExternal: loopback and local schemes stay, everything else is outside', () => {
  for (const url of ['http://127.0.0.1:3000/x', 'http://127.8.9.10/', 'http://localhost:5/', 'ws://[::1]:80/', 'data:text/plain,hi', 'blob:http://127.0.0.1/abc', 'about:blank'])
    expect(isExternal(url)).toBe(false)
  for (const url of ['https://fonts.googleapis.com/css', 'http://10.0.0.1/', 'wss://example.com/', 'http://[::2]/', 'http://127.0.0.1.nip.io/'])
    expect(isExternal(url)).toBe(true)
})

describe.skipIf(!browserAvailable)('e2e harness', () => {
  let gw: Gateway
  let browser: Browser
  let upstream: FakeUpstream

  beforeAll(async () => {
    ;[gw, browser, upstream] = await Promise.all([startGateway(), sharedBrowser(), startFakeOpenAI()])
  }, E2E_TIMEOUT)

  afterAll(async () => {
    const dataDir = gw?.dataDir
    await Promise.all([gw?.stop(), upstream?.stop()])
    if (dataDir) expect(existsSync(dataDir)).toBe(false)
  }, E2E_TIMEOUT)

  test('the binary starts from an empty data dir with no user', async () => {
    expect(readdirSync(gw.dataDir).some((f) => f.endsWith('.db'))).toBe(true)
    const setup = await (await fetch(gw.url + '/api/setup')).json()
    expect(setup.data.status).toBe(false)
    expect(gw.logs()).toContain('listening on http://127.0.0.1:')
  })

  test('a page loads, takes screenshots in both viewports and schemes, and is clean', async () => {
    const { context, page, watch } = await openPage(browser)
    try {
      // a route of the gateway's own, not the console (tests/e2e/console.test.ts covers that)
      const response = await page.goto(gw.url + '/api/status')
      expect(response?.status()).toBe(200)
      const shots = [await screenshot(page, 'harness-status-desktop-light', { always: true })]
      await setViewport(page, 'mobile')
      await setColorScheme(page, 'dark')
      expect(await page.evaluate(() => [innerWidth, matchMedia('(prefers-color-scheme: dark)').matches])).toEqual([390, true])
      shots.push(await screenshot(page, 'harness-status-mobile-dark', { always: true }))
      for (const path of shots) expect(Bun.file(path!).size).toBeGreaterThan(100)
      watch.assertClean()
    } finally {
      await context.close()
    }
  }, E2E_TIMEOUT)

  test('the watch blocks and reports requests off the machine, console errors and page errors', async () => {
    const { context, page, watch } = await openPage(browser)
    try {
      await page.goto(gw.url + '/api/status')
      const result = await page.evaluate(async () => {
        try {
          await fetch('https://example.com/tracker.js')
          return 'reached'
        } catch {
          return 'blocked'
        }
      })
      expect(result).toBe('blocked')
      await page.evaluate(() => {
        console.error('boom from the page')
        setTimeout(() => {
          throw new Error('uncaught in the page')
        })
      })
      await until(() => watch.pageErrors.length > 0 && watch.consoleErrors.length > 0, { what: 'the page\'s errors reported' })
      expect(watch.externalRequests).toEqual(['GET https://example.com/tracker.js'])
      expect(watch.consoleErrors.some((e) => e.includes('boom from the page'))).toBe(true)
      expect(watch.pageErrors.some((e) => e.includes('uncaught in the page'))).toBe(true)
      expect(() => watch.assertClean()).toThrow(/requests off the machine[\s\S]*example\.com/)
    } finally {
      await context.close()
    }
  }, E2E_TIMEOUT)

  test('an expected 4xx resource error is let through by URL and status, others are not', async () => {
    const { context, page, watch } = await openPage(browser, { expected: [{ url: '/api/user/self', status: 401 }] })
    try {
      await page.goto(gw.url + '/api/status')
      const statuses = await page.evaluate(async () => [(await fetch('/api/user/self')).status, (await fetch('/api/token/')).status])
      expect(statuses).toEqual([401, 401])
      await until(() => watch.consoleErrors.length > 0, { what: 'the 401\'s console line' })
      expect(watch.consoleErrors).toHaveLength(1)
      expect(watch.consoleErrors[0]).toContain('/api/token/')
      watch.expectResourceErrors({ url: /\/api\/token\/$/, status: 401 })
      watch.reset()
      await page.evaluate(() => fetch('/api/token/'))
      await page.waitForTimeout(100) // absence: the expected 401 adds no console error a moment later
      watch.assertClean()
    } finally {
      await context.close()
    }
  }, E2E_TIMEOUT)

  test('the fake upstream answers channels of type 1 and 8 through the binary, streamed and not', async () => {
    await setupRoot(gw, ROOT)
    const api = await apiLogin(gw, ROOT)
    // unpriced models are served free (SelfUseModeEnabled), as in tests/helpers/test-app.ts
    expect((await api.call('PUT', '/api/option/', { key: 'SelfUseModeEnabled', value: true })).status).toBe(200)
    for (const fields of [{ type: 1 as const, models: ['gpt-4o-mini'] }, { type: 8 as const, models: ['custom-model'] }])
      expect((await api.call('POST', '/api/channel/', openAIChannel(upstream, fields))).body.success).toBe(true)
    const token = await api.call('POST', '/api/token/', { name: 'e2e', unlimited_quota: true })
    expect(token.status).toBe(200)
    const key: string = token.body.data.key
    const relay = (path: string, body?: unknown) =>
      fetch(gw.url + path, {
        method: body ? 'POST' : 'GET',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: body ? JSON.stringify(body) : undefined,
      })

    const models = await (await relay('/v1/models')).json()
    expect(models.data.map((m: { id: string }) => m.id).sort()).toEqual(['custom-model', 'gpt-4o-mini'])

    upstream.setBehavior({ text: 'Hello from the fake upstream.' })
    for (const model of ['gpt-4o-mini', 'custom-model']) {
      const plain = await (await relay('/v1/chat/completions', { model, messages: [{ role: 'user', content: 'hi' }] })).json()
      expect(plain.choices[0].message.content).toBe('Hello from the fake upstream.')
      const streamed = await (await relay('/v1/chat/completions', { model, stream: true, messages: [{ role: 'user', content: 'hi' }] })).text()
      const text = streamed
        .split('\n')
        .filter((l) => l.startsWith('data: {'))
        .map((l) => JSON.parse(l.slice(6)).choices[0]?.delta?.content ?? '')
        .join('')
      expect(text).toBe('Hello from the fake upstream.')
      expect(streamed).toContain('data: [DONE]')
    }
    const generated = upstream.requests.filter((r) => r.kind === 'generate')
    expect(generated.map((r) => [r.model, r.json.stream === true])).toEqual([
      ['gpt-4o-mini', false], ['gpt-4o-mini', true], ['custom-model', false], ['custom-model', true],
    ])
    expect(generated.every((r) => r.headers.authorization === 'Bearer sk-e2e-upstream-key-0123456789')).toBe(true)
  }, E2E_TIMEOUT)
})
