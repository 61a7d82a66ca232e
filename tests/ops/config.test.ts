import { expect, test } from 'bun:test'
import { join, resolve } from 'node:path'
import { loadConfig } from '../../src/config'

test('operations settings: defaults', () => {
  const config = loadConfig({ LOG_FORMAT: 'json' })
  expect(config.logLevel).toBe('info')
  expect(config.metricsEnabled).toBe(true)
  expect(config.metricsToken).toBeUndefined()
  expect(config.shutdownGraceSeconds).toBe(30)
  expect(config.backupDir).toBeUndefined()
  expect(config.backupEveryHours).toBe(0)
  expect(config.backupKeep).toBe(7)
})

test('LOG_FORMAT, LOG_LEVEL, METRICS_*, SHUTDOWN_GRACE_SECONDS are read and checked', () => {
  const config = loadConfig({ LOG_FORMAT: 'pretty', LOG_LEVEL: 'WARN', METRICS_ENABLED: 'false', METRICS_TOKEN: 't', SHUTDOWN_GRACE_SECONDS: '2.5' })
  expect([config.logFormat, config.logLevel, config.metricsEnabled, config.metricsToken, config.shutdownGraceSeconds]).toEqual(['pretty', 'warn', false, 't', 2.5])
  expect(() => loadConfig({ LOG_FORMAT: 'xml' })).toThrow('LOG_FORMAT')
  expect(() => loadConfig({ LOG_LEVEL: 'loud' })).toThrow('LOG_LEVEL')
  expect(() => loadConfig({ SHUTDOWN_GRACE_SECONDS: '-1' })).toThrow('SHUTDOWN_GRACE_SECONDS')
  expect(() => loadConfig({ METRICS_ENABLED: 'maybe' })).toThrow('METRICS_ENABLED')
})

test('backups: BACKUP_DIR alone means daily; BACKUP_EVERY_HOURS alone goes to DATA_DIR/backups; 0 is none', () => {
  expect(loadConfig({ BACKUP_DIR: '/srv/b' })).toMatchObject({ backupDir: '/srv/b', backupEveryHours: 24, backupKeep: 7 })
  expect(loadConfig({ BACKUP_EVERY_HOURS: '6', DATA_DIR: '/d', BACKUP_KEEP: '30' })).toMatchObject({ backupDir: '/d/backups', backupEveryHours: 6, backupKeep: 30 })
  expect(loadConfig({ BACKUP_DIR: '/srv/b', BACKUP_EVERY_HOURS: '0' }).backupEveryHours).toBe(0)
  expect(() => loadConfig({ BACKUP_KEEP: '0' })).toThrow('BACKUP_KEEP')
})

test('DATABASE_URL names a SQLite file like SQLITE_PATH (which wins); databases other than PostgreSQL (tests/cli/database-url.test.ts) are refused without echoing credentials', () => {
  expect(loadConfig({ DATABASE_URL: 'sqlite:///srv/t.db' }).sqlitePath).toBe('/srv/t.db')
  expect(loadConfig({ DATABASE_URL: 'sqlite://rel.db' }).sqlitePath).toBe(resolve('rel.db'))
  expect(loadConfig({ DATABASE_URL: 'file:/a/b.db?mode=rwc' }).sqlitePath).toBe('/a/b.db')
  expect(loadConfig({ DATABASE_URL: '/plain/path.db' }).sqlitePath).toBe('/plain/path.db')
  expect(loadConfig({ DATABASE_URL: 'sqlite:///x.db', SQLITE_PATH: '/y.db' }).sqlitePath).toBe('/y.db')
  expect(loadConfig({ DATA_DIR: '/d' }).sqlitePath).toBe(join('/d', 'tollgate.db'))
  expect(() => loadConfig({ DATABASE_URL: 'mysql://me:secret@db/t' })).toThrow('must name a SQLite file')
  try {
    loadConfig({ DATABASE_URL: 'mysql://me:secret@db/t' })
  } catch (error) {
    expect((error as Error).message).not.toContain('secret')
  }
})
