import { expect, test } from 'bun:test'
import { resolve } from 'node:path'
import { ConfigError, loadConfig, parseCli } from '../src/config'

test('defaults: port 3000, ./data, tollgate.db inside it, 32 MiB bodies', () => {
  const config = loadConfig({})
  expect(config.port).toBe(3000)
  expect(config.dataDir).toBe(resolve('./data'))
  expect(config.sqlitePath).toBe(resolve('./data/tollgate.db'))
  expect(config.maxBodyBytes).toBe(32 * 1024 * 1024)
  expect(config.rootUsername).toBe('root')
  expect(config.rootPassword).toBeUndefined()
  expect(Object.isFrozen(config)).toBe(true)
})

test('flags win over the environment; SQLITE_PATH overrides the data dir file', () => {
  const action = parseCli(['--port', '4100', '--data-dir=/tmp/x'], { PORT: '5000', DATA_DIR: '/tmp/y', SQLITE_PATH: '/tmp/z/db.sqlite' })
  expect(action.kind).toBe('serve')
  if (action.kind !== 'serve') return
  expect(action.config.port).toBe(4100)
  expect(action.config.dataDir).toBe('/tmp/x')
  expect(action.config.sqlitePath).toBe('/tmp/z/db.sqlite')
})

test('--help and --version; unknown flags and bad values are refused', () => {
  expect(parseCli(['--help'], {}).kind).toBe('help')
  expect(parseCli(['--version'], {}).kind).toBe('version')
  expect(() => parseCli(['--bogus'], {})).toThrow(ConfigError)
  expect(() => parseCli(['--port'], {})).toThrow('--port needs a value')
  expect(() => loadConfig({ PORT: 'abc' })).toThrow('invalid port')
  expect(() => loadConfig({ COOKIE_SECURE: 'maybe' })).toThrow('COOKIE_SECURE')
})

test('WRITER_THREAD: on with 4 or more CPUs unless set; true/false win; other values are refused', () => {
  expect(loadConfig({}).writerThread).toBe(navigator.hardwareConcurrency >= 4)
  expect(loadConfig({ WRITER_THREAD: 'true' }).writerThread).toBe(true)
  expect(loadConfig({ WRITER_THREAD: 'false' }).writerThread).toBe(false)
  expect(() => loadConfig({ WRITER_THREAD: 'sometimes' })).toThrow('WRITER_THREAD')
})

test('REDIS_URL: redis:// and rediss:// are taken; anything else is refused without echoing its password', () => {
  expect(loadConfig({}).redisUrl).toBeUndefined()
  expect(loadConfig({ REDIS_URL: '' }).redisUrl).toBeUndefined()
  expect(loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379/0' }).redisUrl).toBe('redis://127.0.0.1:6379/0')
  expect(loadConfig({ REDIS_URL: 'rediss://:pw@cache.example:6380/1' }).redisUrl).toBe('rediss://:pw@cache.example:6380/1')
  for (const bad of ['http://:hunter2@host:6379', 'redis://:hunter2@', 'not a url']) {
    let message = ''
    try {
      loadConfig({ REDIS_URL: bad })
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError)
      message = (error as Error).message
    }
    expect(message).toContain('REDIS_URL')
    expect(message).not.toContain('hunter2')
  }
})

test('TRUST_PROXY: off by default; true or a hop count; a list of proxies; anything else refused at start, saying what it takes', () => {
  expect(loadConfig({}).trustProxy).toBe(false)
  expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false)
  expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toEqual({ hops: 1 })
  expect(loadConfig({ TRUST_PROXY: '3' }).trustProxy).toEqual({ hops: 3 })
  const listed = loadConfig({ TRUST_PROXY: '10.0.0.0/8, ::1, ::ffff:192.168.0.0/112' }).trustProxy
  expect(listed && listed.proxies?.has('10.1.2.3')).toBe(true)
  expect(listed && listed.proxies?.has('192.168.1.1')).toBe(true)
  expect(listed && listed.proxies?.has('11.0.0.1')).toBe(false)
  for (const bad of ['yes please', '10.0.0.0/40', '0.0.0.0/0,proxy', '99']) {
    expect(() => loadConfig({ TRUST_PROXY: bad })).toThrow(ConfigError)
    expect(() => loadConfig({ TRUST_PROXY: bad })).toThrow(/^TRUST_PROXY must be false, true, a number of proxy hops/)
  }
})
