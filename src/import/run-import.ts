import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { EXIT } from '../cli/args'
import { createSecretBox } from '../crypto/secret-box'
import { redactUrl } from '../config'
import type { ImportRepo } from '../db/repos'
import { VERSION } from '../version'
import type { Flavor } from './channel-types'
import { detectSchema, READ_TABLES, type SourceSchema } from './detect-schema'
import { mapChannels, type MappedChannel } from './map-channels'
import type { MapContext } from './map-common'
import type { IdResolver } from './map-logs'
import { mapOptions } from './map-options'
import { mapRedemptions } from './map-redemptions'
import { importPayments } from './payments'
import { importTasks } from './tasks'
import { mapTokens } from './map-tokens'
import { mapUsers } from './map-users'
import { openSource, type Source, type SourceRow } from './read-source'
import { Report, type ReportJson } from './report'
import { parseSource } from './source-dsn'
import { keepsId, remapNote } from './ids'
import { writeLogs } from './write-logs'
import { checkSecret, cryptoSecret, openTarget, type ImportTarget } from './import-target'
import { importSecondFactors } from './second-factors'
import { importNotifySettings } from './map-notify'
import { importCustomOAuth } from './custom-oauth'
import { OPTION_DEFINITIONS } from '../options/definitions'
import { int } from './values'

export interface ImportOptions {
  /** the word after `import`: what the operator says the source is (the columns decide) */
  claimed: Flavor
  from: string
  /** new-api's LOG_SQL_DSN, when its logs live in another database */
  logsFrom?: string
  dataDir: string
  sqlitePath: string
  /** a postgres:// DATABASE_URL: the target is that PostgreSQL database, not `sqlitePath` */
  databaseUrl?: string
  /** CRYPTO_SECRET from the environment; else DATA_DIR/crypto.secret (created if missing, not on a dry run); required for PostgreSQL */
  cryptoSecret?: string
  dryRun: boolean
  merge: boolean
  /** unix seconds: also import logs and hourly usage from then on */
  logsSince?: number
  reportPath: string
  /** progress lines (default: console.log) */
  log?: (line: string) => void
}

export interface ImportResult {
  report: ReportJson
  reportPath: string
  /** src/cli's exit codes: 0 done (or dry run done), 1 failed, 3 refused (target not empty without --merge) */
  exitCode: 0 | 1 | 3
}

/**
 * `tollgate import new-api`: read a new-api or one-api database and write its users, tokens, channels,
 * redemption codes, options (and, from `logsSince` on, logs and hourly usage) into Tollgate's SQLite file or
 * PostgreSQL database, all in one transaction, then write the report. A dry run does the same writes on an
 * in-memory copy (SQLite) or in a transaction it rolls back (PostgreSQL, whose schema is migrated first as a node's
 * start would).
 */
export async function runImport(options: ImportOptions): Promise<ImportResult> {
  const log = options.log ?? ((line: string) => console.log(line))
  const spec = parseSource(options.from)
  const report = new Report({
    tool: 'tollgate import',
    version: VERSION,
    source: { location: spec.display, engine: spec.kind, schema: 'unknown', evidence: [] },
    target: {
      sqlite_path: options.databaseUrl ? null : options.sqlitePath,
      database_url: options.databaseUrl ? redactUrl(options.databaseUrl) : null,
      dry_run: options.dryRun,
      merge: options.merge,
      logs_since: options.logsSince === undefined ? null : new Date(options.logsSince * 1000).toISOString(),
    },
  })
  let source: Source | undefined
  let logSource: Source | undefined
  let target: ImportTarget | undefined
  const targetName = options.databaseUrl ? redactUrl(options.databaseUrl) : options.sqlitePath
  let exitCode: ImportResult['exitCode'] = 1
  try {
    log(`reading ${spec.display}`)
    source = await openSource(spec)
    const schema = await detectSchema(source)
    report.json.source.schema = schema.flavor
    report.json.source.evidence = schema.evidence
    if (schema.flavor !== options.claimed) {
      report.issue('source', 'schema', `asked to import ${options.claimed}, but the columns are ${schema.flavor}'s: read as ${schema.flavor}`)
    }
    if (options.logsFrom) logSource = await openSource(parseSource(options.logsFrom))
    const ctx: MapContext = { flavor: schema.flavor, report }

    const raw = {
      users: await readTable(source, schema, 'users'),
      tokens: await readTable(source, schema, 'tokens'),
      channels: await readTable(source, schema, 'channels'),
      redemptions: await readTable(source, schema, 'redemptions'),
      options: schema.tables.has('options') ? await source.all('options') : [],
    }
    await countOtherTables(source, schema, report, options)

    const mappedOptions = mapOptions(ctx, raw.options)
    const users = mapUsers(ctx, raw.users)
    const tokens = mapTokens(ctx, raw.tokens)
    const channels = mapChannels(ctx, raw.channels, mappedOptions.autoDisableChannels)
    const redemptions = mapRedemptions(ctx, raw.redemptions)

    target = await openTarget(options)
    const repo = target.repo
    const counts = await repo.counts()
    const filled = Object.entries(counts).filter(([, n]) => n > 0)
    if (filled.length > 0 && !options.merge) {
      const what = filled.map(([table, n]) => `${n} ${table}`).join(', ')
      report.finish('refused', `the target ${targetName} is not empty (${what}): import into a new data directory, or pass --merge to add to it`)
      exitCode = EXIT.refused
      return { report: report.json, reportPath: writeReport(options, report, log), exitCode }
    }
    const box = createSecretBox(cryptoSecret(options))
    await checkSecret(box, repo, options)
    const sealed = await Promise.all(channels.map((c) => box.encrypt(c.keyText)))
    // the options that hold a password or key (SMTPToken, client secrets, bot tokens) are stored sealed, as the API stores them
    for (const [key, value] of mappedOptions.values) if (OPTION_DEFINITIONS[key]?.secret && value) mappedOptions.values.set(key, await box.encrypt(value))

    await repo.begin()
    try {
      const ids = await writeCore(repo, report, options.merge, { users, tokens, channels, sealed, redemptions, options: mappedOptions.values }, raw)
      await importSecondFactors(source, schema, repo, box, ids.importedUser, report)
      await importNotifySettings(repo, box, users, ids.importedUser)
      await importPayments(source, schema, repo, ids.importedUser, report)
      await importCustomOAuth(source, schema, repo, box, ids.importedUser, report)
      await importTasks(source, schema, repo, ids, report)
      if (options.logsSince !== undefined) await writeLogs(ctx, repo, logSource ?? source, logSource ? new Set(await logSource.tables()) : schema.tables, source, schema, ids, options, log)
      if (options.dryRun) await repo.rollback()
      else await repo.commit()
    } catch (error) {
      await repo.rollback()
      throw error
    }
    report.finish(options.dryRun ? 'dry-run' : 'committed')
    exitCode = 0
  } catch (error) {
    const message = (error as Error).message
    const locked = /database is locked|SQLITE_BUSY|could not obtain lock/i.test(message)
    report.finish('failed', locked ? `${message}: is the gateway still running on ${targetName}? Stop it, then import` : message)
    exitCode = 1
  } finally {
    await target?.close()
    await source?.close().catch(() => {})
    await logSource?.close().catch(() => {})
  }
  return { report: report.json, reportPath: writeReport(options, report, log), exitCode }
}

async function readTable(source: Source, schema: SourceSchema, table: 'users' | 'tokens' | 'channels' | 'redemptions'): Promise<SourceRow[]> {
  if (!schema.tables.has(table)) return []
  return source.all(table, schema.columns.get(table)?.has('id') ? 'id' : undefined)
}

/** Tables read by nobody are named with their row counts; abilities are rebuilt from the channels. */
async function countOtherTables(source: Source, schema: SourceSchema, report: Report, options: ImportOptions): Promise<void> {
  for (const table of schema.tables) {
    if ((READ_TABLES as readonly string[]).includes(table) && table !== 'abilities') continue
    const n = await source.count(table)
    if (table === 'abilities') {
      report.read('abilities', n)
      if (n > 0) report.skipped('abilities', 'rebuilt from the channels', n)
      continue
    }
    if (n > 0) report.json.not_imported_tables[table] = { rows: n, reason: 'no counterpart in Tollgate' }
  }
  if (options.logsSince === undefined) {
    for (const table of ['logs', 'quota_data']) {
      if (!schema.tables.has(table)) continue
      const n = await source.count(table)
      if (n > 0) report.json.not_imported_tables[table] = { rows: n, reason: 'no --logs-since' }
    }
  }
}

interface Mapped {
  users: ReturnType<typeof mapUsers>
  tokens: ReturnType<typeof mapTokens>
  channels: MappedChannel[]
  sealed: string[]
  redemptions: ReturnType<typeof mapRedemptions>
  options: Map<string, string>
}

/**
 * Users, tokens, channels, codes and options. Into an empty target every row keeps its source id; with --merge
 * the target gives new ids and the references follow. Conflicts with what the target holds are skipped and
 * reported, never overwritten.
 */
async function writeCore(
  repo: ImportRepo,
  report: Report,
  merge: boolean,
  m: Mapped,
  raw: Record<'users' | 'tokens' | 'channels' | 'redemptions', SourceRow[]>,
): Promise<IdResolver & { importedUser: (sourceId: number) => number }> {
  const userIds = new Map<number, number>()
  const tokenIds = new Map<number, number>()
  const channelIds = new Map<number, number>()
  // into an empty target a row keeps its source id unless that id leaves no room (src/import/ids.ts)
  const keepable = (id: number) => !merge && keepsId(id)
  const keep = (id: number) => (keepable(id) ? { id } : {})
  // an id that did not come over: kept as it was into an empty target (its id is reserved), 0 in a merge
  const resolve = (map: Map<number, number>) => (id: number) => map.get(id) ?? (keepable(id) ? id : 0)
  const remapped = (table: string, from: number, to: number) => {
    if (!merge && from !== to) report.mapped(table, 'id', { from: String(from), to: String(to) }, remapNote(table), from)
    return to
  }
  if (!merge) {
    // ids of rows that did not come over (soft-deleted) still appear in logs: never hand them to a new row, nor
    // to a row given a new id below
    for (const table of ['users', 'tokens', 'channels', 'redemptions'] as const) {
      await repo.reserveIds(table, Math.max(0, ...raw[table].map((row) => int(row.id)).filter(keepsId)))
    }
  }

  for (const u of keptFirst(m.users, keepable)) {
    if (await repo.usernameTaken(u.row.username)) {
      report.skipped('users', 'username taken in the target')
      report.issue('users', 'username', 'already taken in the target: this user (and their tokens) not imported', u.sourceId, u.row.username)
      continue
    }
    let affCode = u.row.affCode ?? null
    if (affCode && (await repo.affCodeTaken(affCode))) {
      report.issue('users', 'aff_code', 'invitation code already taken in the target: the user gets a new one when they ask for it', u.sourceId)
      affCode = null
    }
    userIds.set(u.sourceId, remapped('users', u.sourceId, await repo.insertUser({ ...u.row, affCode, ...keep(u.sourceId) })))
    report.imported('users')
  }
  for (const u of m.users) {
    const id = userIds.get(u.sourceId)
    if (id === undefined) continue
    for (const b of u.bindings) {
      if (!(await repo.insertBinding(id, b.provider, b.externalId))) report.issue('users', `${b.provider} binding`, 'this provider account is bound to a user in the target already: not bound', u.sourceId)
    }
  }
  const user = resolve(userIds)
  for (const u of m.users) {
    const id = userIds.get(u.sourceId)
    if (id === undefined || u.sourceInviterId <= 0) continue
    const inviter = user(u.sourceInviterId)
    if (inviter === 0) report.issue('users', 'inviter_id', 'the inviter was not imported: the invitation link is dropped', u.sourceId, String(u.sourceInviterId))
    else await repo.setInviter(id, inviter)
  }

  for (const t of keptFirst(m.tokens, keepable)) {
    const userId = userIds.get(t.sourceUserId)
    if (userId === undefined) {
      report.skipped('tokens', 'owner not imported')
      report.issue('tokens', 'user_id', 'its owner was not imported (deleted, or skipped above): token not imported', t.sourceId, String(t.sourceUserId))
      continue
    }
    if (await repo.tokenKeyTaken(t.row.keyHash)) {
      report.skipped('tokens', 'key already in the target')
      report.issue('tokens', 'key', 'the same key already exists in the target: not imported', t.sourceId)
      continue
    }
    tokenIds.set(t.sourceId, remapped('tokens', t.sourceId, await repo.insertToken({ ...t.row, userId, ...keep(t.sourceId) })))
    report.imported('tokens')
  }

  const sealed = new Map(m.channels.map((c, i) => [c, m.sealed[i]!]))
  for (const c of keptFirst(m.channels, keepable)) {
    channelIds.set(c.sourceId, remapped('channels', c.sourceId, await repo.insertChannel({ ...c.row, key: sealed.get(c)!, ...keep(c.sourceId) })))
    report.imported('channels')
  }

  for (const r of keptFirst(m.redemptions, keepable)) {
    if (await repo.redemptionKeyTaken(r.row.keyHash)) {
      report.skipped('redemptions', 'code already in the target')
      report.issue('redemptions', 'key', 'the same code already exists in the target: not imported', r.sourceId)
      continue
    }
    remapped('redemptions', r.sourceId, await repo.insertRedemption({ ...r.row, userId: user(r.sourceCreatorId), usedUserId: user(r.sourceUsedUserId), ...keep(r.sourceId) }))
    report.imported('redemptions')
  }

  for (const [key, value] of m.options) {
    if (merge && (await repo.optionSet(key))) {
      report.issue('options', key, "already set in the target: the target's value kept")
      continue
    }
    await repo.setOption(key, value)
  }

  return { user, token: resolve(tokenIds), channel: resolve(channelIds), importedUser: (id) => userIds.get(id) ?? 0 }
}

/** Rows that keep their id go in first: a row given a new id must not take one a kept row still needs. */
function keptFirst<T extends { sourceId: number }>(rows: T[], keepable: (id: number) => boolean): T[] {
  return [...rows.filter((r) => keepable(r.sourceId)), ...rows.filter((r) => !keepable(r.sourceId))]
}

/**
 * The columns a paged query names must exist: SQLite reads an unknown double-quoted name as a string, so a
 * filter on a missing column would quietly match every row instead of failing.
 */
function writeReport(options: ImportOptions, report: Report, log: (line: string) => void): string {
  mkdirSync(dirname(options.reportPath), { recursive: true })
  writeFileSync(options.reportPath, JSON.stringify(report.json, null, 2) + '\n', { mode: 0o600 })
  log(report.summary())
  log(`report: ${options.reportPath}`)
  return options.reportPath
}
