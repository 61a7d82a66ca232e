import { expect, test } from 'bun:test'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
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

test('SESSION_SECRET and CRYPTO_SECRET shorter than 32 bytes are refused, saying why, never echoing them', () => {
  for (const name of ['SESSION_SECRET', 'CRYPTO_SECRET'] as const) {
    for (const short of ['hunter2', 'x'.repeat(31), '秘密'.repeat(5)]) {
      let message = ''
      try {
        loadConfig({ [name]: short })
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError)
        message = (error as Error).message
      }
      expect(message).toContain(`${name} is ${Buffer.byteLength(short)} bytes long; it must be at least 32`)
      expect(message).toContain('openssl rand -base64 32')
      expect(message).not.toContain(short)
    }
  }
  // 32 bytes, counted as bytes: eleven 3-byte characters are 33
  expect(loadConfig({ SESSION_SECRET: 's'.repeat(32), CRYPTO_SECRET: '秘'.repeat(11) })).toMatchObject({ sessionSecret: 's'.repeat(32), cryptoSecret: '秘'.repeat(11) })
  expect(loadConfig({ SESSION_SECRET: '' }).sessionSecret).toBeUndefined() // unset: generated into DATA_DIR
})

test('serve with a short SESSION_SECRET does not start: exit 2 and the reason on stderr', async () => {
  const proc = Bun.spawn(['bun', join(import.meta.dir, '../src/index.ts'), 'serve', '--port', '0'], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: tmpdir(), SESSION_SECRET: 'changeme', DATA_DIR: join(tmpdir(), 'tollgate-never-made') },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const started = setTimeout(() => proc.kill(), 15_000) // a gateway that started after all: stopped, and the test fails
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
  clearTimeout(started)
  expect(code).toBe(2)
  expect(stderr).toContain('SESSION_SECRET is 8 bytes long; it must be at least 32')
  expect(stdout + stderr).not.toContain('changeme')
  expect(stdout).not.toContain('listening on')
}, 20_000)
