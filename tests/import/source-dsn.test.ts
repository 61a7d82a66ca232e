import { describe, expect, test } from 'bun:test'
import { readFileSync, rmSync } from 'node:fs'
import { parseSource, SourceSpecError } from '../../src/import/source-dsn'
import { redactDsn } from '../../src/redact'
import { importInto, tempDir } from './helpers'

test('SQLite: a path, new-api SQLITE_PATH with driver options, sqlite:// and file: URLs', () => {
  expect(parseSource('./one-api.db')).toEqual({ kind: 'sqlite', path: './one-api.db', display: './one-api.db' })
  expect(parseSource('/data/one-api.db?_busy_timeout=30000')).toMatchObject({ kind: 'sqlite', path: '/data/one-api.db' })
  expect(parseSource('sqlite:///data/one-api.db')).toMatchObject({ kind: 'sqlite', path: '/data/one-api.db' })
  expect(parseSource('file:one-api.db?mode=ro')).toMatchObject({ kind: 'sqlite', path: 'one-api.db' })
  expect(parseSource('C:/data/one-api.db')).toMatchObject({ kind: 'sqlite' })
})

test('PostgreSQL URLs: percent-encoded credentials, default port and database, sslmode', () => {
  const spec = parseSource('postgres://new%40api:p%40ss%20w%2Frd@db.internal:6543/newapi?sslmode=require')
  expect(spec).toEqual({
    kind: 'postgres',
    connection: { hostname: 'db.internal', port: 6543, path: undefined, username: 'new@api', password: 'p@ss w/rd', database: 'newapi', tls: 'require' },
    display: 'postgres://new%40api:***@db.internal:6543/newapi?sslmode=require',
  })
  expect(parseSource('postgresql://postgres@localhost/oneapi')).toMatchObject({ kind: 'postgres', connection: { port: 5432, database: 'oneapi', password: '' } })
})

test('MySQL URL form', () => {
  expect(parseSource('mysql://root:secret@10.0.0.5:3307/oneapi')).toEqual({
    kind: 'mysql',
    connection: { hostname: '10.0.0.5', port: 3307, username: 'root', password: 'secret', database: 'oneapi', tls: undefined },
    display: 'mysql://root:***@10.0.0.5:3307/oneapi',
  })
  expect(parseSource('mariadb://u:p@db/x')).toMatchObject({ kind: 'mysql', connection: { port: 3306, database: 'x' } })
  expect(() => parseSource('mysql://u:p@db:3306/')).toThrow(SourceSpecError)
})

test("Go's DSN form, as new-api's SQL_DSN writes it", () => {
  expect(parseSource('root:123456@tcp(localhost:3306)/oneapi')).toEqual({
    kind: 'mysql',
    connection: { hostname: 'localhost', port: 3306, username: 'root', password: '123456', database: 'oneapi', tls: undefined },
    display: 'root:***@tcp(localhost:3306)/oneapi',
  })
  // driver parameters after `?`, TLS asked for
  expect(parseSource('newapi:pw@tcp(db.example.com:4000)/newapi?charset=utf8mb4&parseTime=True&loc=Local&tls=true')).toMatchObject({
    kind: 'mysql',
    connection: { hostname: 'db.example.com', port: 4000, database: 'newapi', tls: 'require' },
  })
  // a password with '@', ':' and '/' (Go splits at the last '@' before the last '/', then at the first ':')
  expect(parseSource('u:p@ss:w/rd@tcp(127.0.0.1:3306)/db')).toMatchObject({ connection: { username: 'u', password: 'p@ss:w/rd', hostname: '127.0.0.1' } })
  // no port, no address, a unix socket, IPv6
  expect(parseSource('u:p@tcp(dbhost)/db')).toMatchObject({ connection: { hostname: 'dbhost', port: 3306 } })
  expect(parseSource('u:p@/db')).toMatchObject({ kind: 'mysql', connection: { hostname: '127.0.0.1', port: 3306, database: 'db' } })
  expect(parseSource('u@unix(/run/mysqld/mysqld.sock)/db')).toMatchObject({ connection: { path: '/run/mysqld/mysqld.sock', username: 'u', password: '' } })
  expect(parseSource('u:p@tcp([::1]:3306)/db')).toMatchObject({ connection: { hostname: '::1', port: 3306 } })
  expect(parseSource('u:p@tcp(h:3306)/db').display).toBe('u:***@tcp(h:3306)/db')
  expect(() => parseSource('u:p@tcp(h:3306)/')).toThrow(SourceSpecError)
  expect(() => parseSource('u:p@tcp(h:99999)/db')).toThrow(SourceSpecError)
})

test('unknown schemes and empty input are refused with the forms that work', () => {
  expect(() => parseSource('redis://localhost/0')).toThrow(/unsupported database scheme/)
  expect(() => parseSource('  ')).toThrow(/SQLite file, postgres/)
})

describe('the password of a source is never printed, whatever form it was given in', () => {
  const SECRET = 's3cret-Pw'
  const forms = [
    `postgres://newapi:${SECRET}@127.0.0.1:1/newapi`,
    // an '@' in the password, not percent-encoded: URL parsers take the userinfo up to the last '@'
    `postgres://newapi:p@${SECRET}@127.0.0.1:1/newapi`,
    `postgres://127.0.0.1:1/newapi?user=newapi&password=${SECRET}`,
    `newapi:${SECRET}@tcp(127.0.0.1:1)/newapi`,
    // no tcp(…): not recognised as a DSN, read as a file name, which must not show it either
    `newapi:${SECRET}@127.0.0.1:3306/newapi`,
    // libpq's key-value form: the same
    `host=127.0.0.1 user=newapi password=${SECRET} dbname=newapi`,
  ]

  test('redactDsn: user kept, password replaced by ***', () => {
    expect(redactDsn(`postgres://newapi:${SECRET}@db/x`)).toBe('postgres://newapi:***@db/x')
    expect(redactDsn(`postgres://newapi:p@${SECRET}@db/x`)).toBe('postgres://newapi:***@db/x')
    expect(redactDsn(`u:${SECRET}@tcp(h:3306)/db?tls=true`)).toBe('u:***@tcp(h:3306)/db?tls=true')
    expect(redactDsn(`host=h password=${SECRET} dbname=x`)).toBe('host=h password=*** dbname=x')
    expect(redactDsn('/data/one-api.db')).toBe('/data/one-api.db')
    expect(redactDsn('postgres://db.internal/x')).toBe('postgres://db.internal/x')
    for (const form of forms) expect(redactDsn(form)).not.toContain(SECRET)
  })

  test('tollgate import: neither its lines, its report nor its error show the password', async () => {
    const dir = tempDir('redact')
    try {
      for (const form of forms) {
        const lines: string[] = []
        const result = await importInto(dir, form, [], lines)
        expect(result.exitCode).toBe(1)
        const printed = `${lines.join('\n')}\n${JSON.stringify(result.report)}\n${readFileSync(result.reportPath, 'utf8')}`
        expect([form, printed.includes(SECRET)]).toEqual([form, false])
        expect(printed).toContain('***')
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 60_000)
})
