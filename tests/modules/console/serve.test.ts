import { afterAll, beforeAll, expect, test } from 'bun:test'
import { gunzipSync, brotliDecompressSync } from 'node:zlib'
import { startTestApp, type TestApp } from '../../helpers/test-app'

let app: TestApp
beforeAll(async () => {
  app = await startTestApp()
})
afterAll(() => app.stop())

const assetPaths = (html: string) => [...html.matchAll(/(?:src|href)="(\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]!)

test('every console URL answers the page with a strict CSP, revalidated; deep links work', async () => {
  for (const path of ['/', '/login', '/setup', '/tokens', '/logs', '/channels/3', '/settings']) {
    const res = await app.fetch(path)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toStartWith('text/html')
    expect(res.headers.get('cache-control')).toBe('no-cache')
    const csp = res.headers.get('content-security-policy')!
    expect(csp).toContain("default-src 'none'")
    expect(csp).toContain("script-src 'self'")
    expect(csp).toContain("connect-src 'self'")
    expect(csp).not.toContain('unsafe')
    const html = await res.text()
    expect(html).toContain('<div id="app">')
    expect(assetPaths(html).length).toBe(2)
  }
})

test('hashed assets: a year of caching, brotli or gzip as accepted, 304 on a matching ETag, no source maps', async () => {
  const html = await (await app.fetch('/')).text()
  for (const path of assetPaths(html)) {
    const plain = await app.fetch(path, { headers: { 'accept-encoding': 'identity' } })
    expect(plain.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    const bytes = new Uint8Array(await plain.arrayBuffer())
    const br = await app.fetch(path, { headers: { 'accept-encoding': 'gzip, br' }, decompress: false } as RequestInit)
    expect(br.headers.get('content-encoding')).toBe('br')
    expect(brotliDecompressSync(new Uint8Array(await br.arrayBuffer()))).toEqual(Buffer.from(bytes))
    const gz = await app.fetch(path, { headers: { 'accept-encoding': 'gzip' }, decompress: false } as RequestInit)
    expect(gz.headers.get('content-encoding')).toBe('gzip')
    expect(gunzipSync(new Uint8Array(await gz.arrayBuffer()))).toEqual(Buffer.from(bytes))
    const again = await app.fetch(path, { headers: { 'if-none-match': plain.headers.get('etag')! } })
    expect(again.status).toBe(304)
    expect((await app.fetch(`${path}.map`)).status).toBe(404)
  }
  expect(html).not.toContain('sourceMappingURL')
}, 60_000) // a hang detector: brotli at quality 11 of every file is seconds of CPU, which a loaded machine stretched past 20 s

test('unknown API paths keep their own error shapes; HEAD / stays the liveness probe', async () => {
  const api = await app.fetch('/api/nope')
  expect(api.status).toBe(404)
  expect(await api.json()).toMatchObject({ success: false })
  const v1 = await app.fetch('/v1/nope')
  expect(v1.status).toBe(404)
  expect(((await v1.json()) as { error: { type: string } }).error.type).toBe('not_found_error')
  const v1beta = await app.fetch('/v1beta/nope')
  expect(v1beta.status).toBe(404)
  expect(((await v1beta.json()) as { error: { status: string } }).error.status).toBeDefined()
  const head = await app.fetch('/', { method: 'HEAD' })
  expect(head.status).toBe(200)
  expect((await app.fetch('/missing-file.js')).status).toBe(404)
})
