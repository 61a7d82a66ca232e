import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'bun:test'
import { patchTopLevel } from '../../../src/relay/body/raw-json-patch'

test('replaces a top-level value and keeps every other byte', () => {
  const raw = '{ "a" : {"model":"x"}, "model" :"gpt-4o" ,"s":"}{\\"model\\":1", "n": 1.50 }'
  expect(patchTopLevel(raw, { model: 'mini' })).toBe('{ "a" : {"model":"x"}, "model" :"mini" ,"s":"}{\\"model\\":1", "n": 1.50 }')
})

test('inserts a missing key right after the opening brace; an empty object gets no comma', () => {
  expect(patchTopLevel('{"a":1}', { b: { c: true } })).toBe('{"b":{"c":true},"a":1}')
  expect(patchTopLevel(' {} ', { b: 1 })).toBe(' {"b":1} ')
})

test('a repeated key: the last one (the one JSON.parse keeps) is replaced', () => {
  const out = patchTopLevel('{"m":"a","m":"b"}', { m: 'c' })!
  expect(out).toBe('{"m":"a","m":"c"}')
  expect(JSON.parse(out).m).toBe('c')
})

test('not one JSON object → undefined', () => {
  for (const raw of ['', '[]', '{"a":1', '{"a":1} x', '{"a" 1}', '"x"', '{"a":1,}']) expect(patchTopLevel(raw, { a: 2 })).toBeUndefined()
})

test('every captured client body: patched text parses to the body with the patch applied', () => {
  const dir = join(import.meta.dir, '../../fixtures/clients')
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
    const body = JSON.parse(readFileSync(join(dir, file), 'utf8')).body
    for (const raw of [JSON.stringify(body), JSON.stringify(body, null, 2)]) {
      const patch = { model: 'mapped-model', stream_options: { include_usage: true } }
      const out = patchTopLevel(raw, patch)
      expect(out, file).toBeDefined()
      expect(JSON.parse(out!)).toEqual({ ...body, ...patch })
    }
  }
})
