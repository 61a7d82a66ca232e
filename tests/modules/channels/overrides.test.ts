import { afterAll, beforeAll, expect, test } from 'bun:test'
import { call, startTestApp, type TestApp } from '../../helpers/test-app'
import { userHeaders } from './helpers'

/** new-api's override fields on the channel API: stored as sent when valid, a 400 `invalid_override` naming the field when not; the proxy's password never shown. */
let app: TestApp
let admin: Record<string, string>
beforeAll(async () => {
  app = await startTestApp()
  admin = await userHeaders(app)
})
afterAll(() => app.stop())

const base = { type: 1, name: 'ov', key: 'sk-x', base_url: 'https://api.example.com', models: 'gpt-4o' }

test('valid overrides are stored and shown as new-api shows them', async () => {
  const res = await call(app, 'POST', '/api/channel/', {
    ...base,
    param_override: { operations: [{ path: 'temperature', mode: 'set', value: 0 }] },
    header_override: '{"X-Org":"{api_key}"}',
    status_code_mapping: { '400': '500' },
    setting: { system_prompt: 'Be brief.', system_prompt_override: true, proxy: 'socks5://gw:pa55@proxy.example.com:1080' },
  }, admin)
  expect(res.status).toBe(200)
  const [row] = await app.deps.repos.channels.all()
  expect(row).toMatchObject({ paramOverride: '{"operations":[{"path":"temperature","mode":"set","value":0}]}', headerOverride: '{"X-Org":"{api_key}"}', statusCodeMapping: '{"400":"500"}' })
  expect(JSON.parse(row!.setting).proxy).toBe('socks5://gw:pa55@proxy.example.com:1080')

  const shown = await call(app, 'GET', `/api/channel/${row!.id}`, undefined, admin)
  expect(shown.body.data).toMatchObject({ param_override: row!.paramOverride, header_override: row!.headerOverride, status_code_mapping: '{"400":"500"}' })
  expect(JSON.stringify(shown.body)).not.toContain('pa55')
  const setting = JSON.parse(shown.body.data.setting)
  expect(setting.proxy).toBe('socks5://gw:****@proxy.example.com:1080')

  // the form sends the masked proxy back with another change: the stored password stays
  const edit = await call(app, 'PUT', '/api/channel/', { id: row!.id, setting: { ...setting, system_prompt: 'Shorter.' } }, admin)
  expect(edit.status).toBe(200)
  const after = JSON.parse((await app.deps.repos.channels.findById(row!.id))!.setting)
  expect(after).toMatchObject({ proxy: 'socks5://gw:pa55@proxy.example.com:1080', system_prompt: 'Shorter.' })
})

test('each bad value is a 400 invalid_override naming its field; nothing is written', async () => {
  const cases: [Record<string, unknown>, string, string][] = [
    [{ param_override: '{not json' }, 'param_override', 'not valid JSON'],
    [{ param_override: { operations: [{ path: 'x', mode: 'explode' }] } }, 'param_override', 'mode must be one of'],
    [{ param_override: { operations: [{ mode: 'move', from: 'a' }] } }, 'param_override', 'to is required'],
    [{ param_override: { operations: [{ path: 'a', mode: 'set', value: 1, conditions: [{ path: 'n', mode: 'gt', value: 'x' }] }] } }, 'param_override', 'compares with a number'],
    [{ header_override: { Host: 'evil.example' } }, 'header_override', 'cannot be overridden'],
    [{ header_override: { 'X-A': 'a\r\nX-B: b' } }, 'header_override', 'line break'],
    [{ status_code_mapping: { '400': 'five hundred' } }, 'status_code_mapping', 'HTTP error statuses'],
    [{ status_code_mapping: { '200': '500' } }, 'status_code_mapping', 'HTTP error statuses'],
    [{ setting: { proxy: 'ftp://proxy.example.com' } }, 'setting.proxy', 'not a proxy scheme'],
    [{ setting: { system_prompt_override: 'yes' } }, 'setting.system_prompt_override', 'true or false'],
  ]
  const before = (await app.deps.repos.channels.all()).length
  for (const [fields, field, message] of cases) {
    const res = await call(app, 'POST', '/api/channel/', { ...base, ...fields }, admin)
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({ success: false, data: { code: 'invalid_override', param: field } })
    expect(res.body.message).toContain(message)
  }
  expect(await app.deps.repos.channels.all()).toHaveLength(before)
})
