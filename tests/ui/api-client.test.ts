import { afterEach, expect, test } from 'bun:test'
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { api } from '../../src/ui/api/client'
import { streamChat } from '../../src/ui/pages/playground/stream'

/**
 * The server takes writes as JSON only (plugins/same-origin.ts, a 415 otherwise): the console's writes all go
 * through `api` or the playground's `streamChat`, and each sends its body as application/json, same-origin.
 */
const realFetch = globalThis.fetch
afterEach(() => {
  globalThis.fetch = realFetch
})

function recordFetch(answer: () => Response) {
  const sent: { url: string; method: string; headers: Record<string, string>; body: unknown; credentials: unknown }[] = []
  globalThis.fetch = (async (url: string, init: RequestInit = {}) => {
    sent.push({ url, method: init.method ?? 'GET', headers: { ...(init.headers as Record<string, string>) }, body: init.body, credentials: init.credentials })
    return answer()
  }) as typeof fetch
  return sent
}

const envelope = () => Response.json({ success: true, message: '', data: null })

test('every write of the API client is JSON with its content type; a DELETE has no body', async () => {
  const sent = recordFetch(envelope)
  await api.post('/api/channel/', { name: 'x' })
  await api.post('/api/channel/tag/enabled')
  await api.put('/api/option/', { key: 'SystemName', value: 'x' })
  await api.delete('/api/token/1')
  expect(sent.map(({ method, headers, body, credentials }) => ({ method, type: headers['content-type'], body, credentials }))).toEqual([
    { method: 'POST', type: 'application/json', body: '{"name":"x"}', credentials: 'same-origin' },
    { method: 'POST', type: 'application/json', body: '{}', credentials: 'same-origin' },
    { method: 'PUT', type: 'application/json', body: '{"key":"SystemName","value":"x"}', credentials: 'same-origin' },
    { method: 'DELETE', type: undefined, body: undefined, credentials: 'same-origin' },
  ])
})

test('the playground sends its request as JSON', async () => {
  const sent = recordFetch(() => new Response('data: [DONE]\n\n', { headers: { 'content-type': 'text/event-stream' } }))
  await streamChat({ model: 'm', messages: [] }, new AbortController().signal, () => {}, () => {})
  expect(sent[0]).toMatchObject({ url: '/pg/chat/completions', method: 'POST', headers: { 'content-type': 'application/json' }, credentials: 'same-origin' })
})

test('no other console file calls fetch: a new write cannot skip the JSON client', () => {
  const root = join(import.meta.dir, '../../src/ui')
  const files = (readdirSync(root, { recursive: true }) as string[]).filter((f) => /\.tsx?$/.test(f))
  const callers = files.filter((f) => /\bfetch\(/.test(readFileSync(join(root, f), 'utf8'))).map((f) => relative(root, join(root, f)))
  expect(callers.sort()).toEqual(['api/client.ts', 'pages/playground/stream.ts'])
})
