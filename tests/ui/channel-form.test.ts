import { expect, test } from 'bun:test'
import { parseModelMapping } from '../../src/relay/routing/model-mapping'
import { channelBody, checkChannelForm, checkModelMapping, customSuggestions, formOf, keyCount, mergeNames, movesStoredKey, splitKeyLines, splitNames } from '../../src/ui/lib/channel-form'

test('names: comma separated or one per line, trimmed, once each', () => {
  expect(splitNames('gpt-4o, gpt-4o-mini\nclaude-sonnet-4-5,\n\n gpt-4o ')).toEqual(['gpt-4o', 'gpt-4o-mini', 'claude-sonnet-4-5'])
  expect(splitNames('  ')).toEqual([])
  expect(mergeNames(['a', 'b'], ['b', 'c'])).toEqual(['a', 'b', 'c'])
})

test('keys: one per line, blank lines dropped', () => {
  expect(splitKeyLines('sk-1\n\n  sk-2  \n')).toEqual(['sk-1', 'sk-2'])
  expect(splitKeyLines('')).toEqual([])
})

test('model mapping: JSON object of non-empty names, no cycles', () => {
  expect(checkModelMapping('')).toEqual({ mapping: {} })
  expect(checkModelMapping('{"gpt-4": " gpt-4o ", "same": "same"}')).toEqual({ mapping: { 'gpt-4': 'gpt-4o', same: 'same' } })
  expect(checkModelMapping('{"a": ')).toEqual({ error: { code: 'json' } })
  expect(checkModelMapping('["a"]')).toEqual({ error: { code: 'object' } })
  expect(checkModelMapping('"a"')).toEqual({ error: { code: 'object' } })
  expect(checkModelMapping('{"a": ""}')).toEqual({ error: { code: 'value', name: 'a' } })
  expect(checkModelMapping('{"a": 1}')).toEqual({ error: { code: 'value', name: 'a' } })
  expect(checkModelMapping('{"a": "b", "b": "c", "c": "a"}')).toEqual({ error: { code: 'cycle', path: 'a → b → c → a' } })
})

test('the client check accepts and refuses what the server does', () => {
  const cases = ['', 'null', '{}', '{"a":"b"}', '{"a":"a"}', '{"a":"b","b":"a"}', '{"a":"b","b":"c"}', '{"x":"a","a":"b","b":"a"}', '[]', '{"a":2}', '{"a":" "}', 'nope', '7']
  for (const text of cases) {
    let server: boolean
    try {
      parseModelMapping(text)
      server = true
    } catch {
      server = false
    }
    expect({ text, ok: 'mapping' in checkModelMapping(text) }).toEqual({ text, ok: server })
  }
})

const stored = { id: 7, type: 14, name: 'claude', base_url: '', models: 'a,b', group: 'default,vip', priority: 5, weight: 2, tag: 'prod', model_mapping: '{"x":"a"}', test_model: '', auto_ban: 0 }

test('a new channel form: checked before sending, each problem on its field', () => {
  const form = { ...formOf(), name: ' ', priority: '1.5', weight: '-1', baseUrl: 'api.example.com', modelMapping: '{' }
  expect(checkChannelForm(form, { creating: true, keyRequired: true, baseUrlRequired: false })).toEqual({
    name: { code: 'required' },
    key: { code: 'required' },
    baseUrl: { code: 'url' },
    models: { code: 'required' },
    priority: { code: 'range', min: -1_000_000_000, max: 1_000_000_000 },
    weight: { code: 'range', min: 0, max: 1_000_000 },
    modelMapping: { code: 'mapping', error: { code: 'json' } },
  })
  const ok = { ...formOf(), name: 'ollama', models: 'llama3.2', priority: '-3' }
  expect(checkChannelForm(ok, { creating: true, keyRequired: false, baseUrlRequired: false })).toEqual({})
  expect(checkChannelForm(ok, { creating: true, keyRequired: false, baseUrlRequired: true })).toEqual({ baseUrl: { code: 'required' } })
  // editing: the stored keys stay when the key is left empty
  expect(checkChannelForm(formOf(stored), { creating: false, keyRequired: true, baseUrlRequired: false })).toEqual({})
})

test('create body: one channel holding every key line (a pool), names joined, mapping compact', () => {
  const form = { ...formOf(), type: '1', name: ' main ', key: 'sk-1\n\nsk-2\n', baseUrl: 'https://proxy.example.com/', models: 'gpt-4o\ngpt-4o-mini, gpt-4o', groups: '', tag: ' t ', modelMapping: '{\n "gpt-4": "gpt-4o"\n}', testModel: 'gpt-4o-mini' }
  expect(channelBody(form)).toEqual({
    type: 1,
    name: 'main',
    key: 'sk-1\nsk-2',
    base_url: 'https://proxy.example.com',
    models: 'gpt-4o,gpt-4o-mini',
    group: 'default',
    priority: 0,
    weight: 0,
    tag: 't',
    model_mapping: '{"gpt-4":"gpt-4o"}',
    test_model: 'gpt-4o-mini',
    auto_ban: 1,
    other: '',
  })
})

test('a Vertex channel: its service account JSON is one key whatever its lines, its region goes in other', () => {
  const account = JSON.stringify({ type: 'service_account', project_id: 'p', private_key: '-----BEGIN PRIVATE KEY-----\nAAA\n-----END PRIVATE KEY-----\n' }, null, 2)
  expect(keyCount(account)).toBe(1)
  expect(keyCount(`[${account}, ${account}]`)).toBe(2)
  expect(keyCount('AKID|secret|us-east-1\nAKID2|secret2|us-west-2')).toBe(2)
  expect(keyCount('{"type": "serv')).toBe(1) // half pasted: still one line
  const body = channelBody({ ...formOf(), type: '41', name: 'v', key: account, models: 'gemini-2.5-pro', other: ' us-east5 ' })
  expect(JSON.parse(body.key as string)).toEqual(JSON.parse(account))
  expect(body.other).toBe('us-east5')
  expect(formOf({ ...stored, other: '{"default":"europe-west1"}' }).other).toBe('{"default":"europe-west1"}')
})

test('edit body: the id, no key when empty (stored keys kept), key_mode append when asked', () => {
  const form = formOf(stored)
  expect(form).toMatchObject({ type: '14', models: 'a, b', groups: 'default, vip', modelMapping: '{\n  "x": "a"\n}', autoBan: false, key: '' })
  const body = channelBody(form, 7)
  expect(body).toMatchObject({ id: 7, type: 14, models: 'a,b', group: 'default,vip', model_mapping: '{"x":"a"}', auto_ban: 0 })
  expect('key' in body).toBe(false)
  expect(channelBody({ ...form, key: 'sk-3', appendKeys: true }, 7)).toMatchObject({ key: 'sk-3', key_mode: 'append' })
  expect(channelBody({ ...form, key: 'sk-3' }, 7)).not.toHaveProperty('key_mode')
})

test('an edit that sends the stored key to a new address is caught before sending unless it carries the key', () => {
  const stored = { id: 7, type: 1, name: 'c', base_url: 'https://api.openai.com', models: 'gpt-4o', group: 'default', priority: 0, weight: 0, tag: '', model_mapping: '', test_model: '', auto_ban: 1, other: '' }
  const form = formOf(stored)
  expect(movesStoredKey(form, stored, false)).toBe(false) // nothing changed
  expect(movesStoredKey({ ...form, name: 'renamed', models: 'gpt-4o-mini' }, stored, false)).toBe(false)
  expect(movesStoredKey({ ...form, baseUrl: 'https://mine.example' }, stored, false)).toBe(true)
  expect(movesStoredKey({ ...form, baseUrl: 'https://api.openai.com/' }, stored, false)).toBe(false) // a trailing slash is the same address
  expect(movesStoredKey({ ...form, type: '8' }, stored, false)).toBe(true)
  expect(movesStoredKey({ ...form, other: 'eu' }, stored, true)).toBe(true) // Vertex's region, Cloudflare's account
  expect(movesStoredKey({ ...form, other: '2025-01-01' }, stored, false)).toBe(false) // Azure's api-version
  expect(movesStoredKey({ ...form, baseUrl: 'https://mine.example', key: 'sk-new' }, stored, false)).toBe(false)
  expect(movesStoredKey({ ...form, baseUrl: 'https://mine.example', key: 'sk-new', appendKeys: true }, stored, false)).toBe(true) // the stored keys would go along
})

test('Custom suggestions: the instance’s priced models first, then the type’s common ones, then models served without a price; once each', () => {
  const known = { items: [{ model: 'unpriced-a', priced: false }, { model: 'gpt-4o', priced: true }, { model: 'my-llama', priced: true }], unpriced_models: ['served-only'] }
  expect(customSuggestions(['gpt-4o-mini', 'gpt-4o'], known)).toEqual(['gpt-4o', 'my-llama', 'gpt-4o-mini', 'unpriced-a', 'served-only'])
  // before the instance answers (or if it cannot), the type's own list
  expect(customSuggestions(['gpt-4o-mini'], undefined)).toEqual(['gpt-4o-mini'])
})
