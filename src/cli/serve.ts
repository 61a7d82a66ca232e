import { createApp } from '../app'
import { ConfigError, HELP, parseCli, redactUrl, type Config, type Env } from '../config'
import { openRepos } from '../db'
import { NewerDatabaseError } from '../db/errors'
import type { NodeGuard } from '../db/postgres/node-guard'
import type { Repos } from '../db/repos'
import { createDeps } from '../deps'
import { startIdleCollector } from '../launch/idle-collector'
import { tightenDataFiles } from '../launch/private-files'
import { ensureStartEnv } from '../launch/start-env'
import { bootstrapRoot } from '../modules/setup/bootstrap'
import { setupAnnouncement } from '../modules/setup/code-gate'
import { setupState } from '../modules/setup/create-root'
import { setupCodeOf } from '../modules/setup/setup-code'
import { CRYPTO_SECRET_FILE, SESSION_SECRET_FILE } from '../backup/backup'
import { startBackupSchedule } from '../backup/schedule'
import { controlActions, ControlError, startControlServer } from './control'
import { createLogSink, routeConsoleTo, type Logger } from '../telemetry/logger'
import { requestsArrived } from '../plugins/request-context'
import { VERSION } from '../version'
import { EXIT, UsageError } from './args'

export const SERVE_HELP = HELP

/** `tollgate [serve] [--port N] [--data-dir DIR]`: the gateway, until SIGTERM or SIGINT. */
export async function runServe(argv: readonly string[], env: Env): Promise<number> {
  let action
  try {
    action = parseCli(argv, env)
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(error.message)
    throw error
  }
  if (action.kind === 'help') return void console.log(HELP), EXIT.ok
  if (action.kind === 'version') return void console.log(VERSION), EXIT.ok
  if (action.kind === 'serve' && action.config.database.kind === 'postgres') {
    const missing = missingSharedSecrets(action.config)
    if (missing.length > 0) return refuseWithoutSecrets(missing)
  }
  // before any fetch: Bun's cap on concurrent upstream requests and its allocator's page reuse (re-executes this process once if needed)
  ensureStartEnv()
  return serve(action.config)
}

/** On PostgreSQL every node must sign sessions and seal channel keys alike: the secrets come from the environment, not from one node's DATA_DIR. */
function missingSharedSecrets(config: Config): string[] {
  return [config.sessionSecret ? undefined : 'SESSION_SECRET', config.cryptoSecret ? undefined : 'CRYPTO_SECRET'].filter((name): name is string => name !== undefined)
}

function refuseWithoutSecrets(missing: string[]): number {
  console.error(
    `tollgate: on PostgreSQL, ${missing.join(' and ')} must be set in the environment, the same on every node: ` +
      'CRYPTO_SECRET seals the channel keys in the shared database and SESSION_SECRET signs the console sessions every node checks. ' +
      'Coming from SQLite, use the values `tollgate migrate-db` printed (DATA_DIR/crypto.secret and session.secret); a new install can use `openssl rand -base64 32` for each.',
  )
  return EXIT.refused
}

/** While no root exists: the setup URL with its one-time code, at every start until setup is done. */
async function announceSetup(deps: Awaited<ReturnType<typeof createDeps>>, log: Logger, hostname: string, port: number): Promise<void> {
  if ((await setupState(deps)).status) return
  const { url, message } = setupAnnouncement(setupCodeOf(deps.secrets.session), hostname, port)
  log.info({ setup_url: url }, message)
}

/** On PostgreSQL: this node's registration (src/db/postgres/node-guard.ts), or the refusal that names what to change. */
async function guardNode(config: Config, log: Logger, nodeId: string): Promise<NodeGuard | number | undefined> {
  if (config.database.kind !== 'postgres') return undefined
  const { NodeGuardError, takeNodeGuard } = await import('../db/postgres/node-guard')
  try {
    return await takeNodeGuard(config.database.url, {
      shared: config.redisUrl !== undefined,
      nodeId,
      onChange: (held, error) =>
        held ? log.info('node guard: retook the node lock on PostgreSQL') : log.error({ err: error instanceof Error ? error.message : String(error) }, 'node guard: lost the connection that holds the node lock; retrying'),
    })
  } catch (error) {
    if (error instanceof NodeGuardError) {
      log.fatal(error.message)
      return EXIT.refused
    }
    log.fatal({ err: error instanceof Error ? error.message : String(error) }, `cannot reach PostgreSQL at ${redactUrl(config.database.url)}`)
    return EXIT.failed
  }
}

async function serve(config: Config): Promise<number> {
  const sink = createLogSink(config)
  const log = sink.logger
  // from here on, what anything prints is a log line (JSON unless on a terminal)
  routeConsoleTo(log)

  // one id for this process: its quota holds carry it, and its node guard holds the lock that says it is alive
  const nodeId = `node-${crypto.randomUUID()}`
  const guard = await guardNode(config, log, nodeId)
  if (typeof guard === 'number') {
    await sink.flush()
    return guard
  }
  const tightened = tightenDataFiles(config.dataDir, config.database.kind === 'sqlite' ? config.sqlitePath : undefined, [SESSION_SECRET_FILE, CRYPTO_SECRET_FILE])
  for (const change of tightened) log.warn({ path: change }, `made private (group and others could read it): ${change}`)
  let repos: Repos
  try {
    repos = await openRepos(config, { nodeId })
  } catch (error) {
    if (error instanceof NewerDatabaseError) {
      log.fatal(error.message)
      await guard?.release()
      await sink.flush()
      return EXIT.failed
    }
    throw error
  }
  const deps = await createDeps(config, repos, log)
  const listening: { port?: number; hostname?: string } = {}
  let control: Awaited<ReturnType<typeof startControlServer>>
  try {
    control = await startControlServer(config, controlActions(deps), () => listening)
  } catch (error) {
    if (!(error instanceof ControlError)) throw error
    log.fatal(error.message)
    await deps.metering.stop() // the repositories close with it
    await deps.coord.close()
    await guard?.release()
    await sink.flush()
    return EXIT.failed
  }
  await bootstrapRoot(deps)
  const app = createApp(deps).listen({ port: config.port, hostname: config.hostname })
  const server = app.server!
  listening.port = server.port
  listening.hostname = server.hostname
  // whatever LOG_LEVEL says (short of silent), where it listens is written: scripts and supervisors wait for it
  const where = config.database.kind === 'postgres' ? redactUrl(config.database.url) : config.sqlitePath
  const startLog = config.logLevel === 'silent' ? log : log.child({}, { level: 'info' })
  startLog.info({ version: VERSION, port: server.port, hostname: server.hostname, db: where, coordination: config.redisUrl ? redactUrl(config.redisUrl) : 'local' }, `tollgate ${VERSION} listening on http://${server.hostname}:${server.port} (db ${where})`)
  await announceSetup(deps, startLog, server.hostname ?? config.hostname, server.port ?? config.port)
  const idle = startIdleCollector({ arrived: requestsArrived, inFlight: () => app.server?.pendingRequests ?? 0 })
  const backups = startBackupSchedule(config, deps.ops)
  // the start lines out at once, not with the next batch of lines: whoever waits for them is waiting now
  void sink.flush()

  let stopping = false
  const stop = async (signal: string) => {
    if (stopping) return
    stopping = true
    const graceMs = config.shutdownGraceSeconds * 1000
    // never later than the grace period plus a few seconds, whatever hangs
    const deadline = setTimeout(() => {
      log.error('shutdown: still not done 10 s after the grace period; exiting without waiting further')
      sink.flushSync()
      process.exit(EXIT.failed)
    }, graceMs + 10_000)
    deadline.unref()
    deps.ops.draining = true
    log.info({ signal, open_streams: deps.ops.streams.size, in_flight: server.pendingRequests, grace_seconds: config.shutdownGraceSeconds }, `${signal}: draining; no new connections, open streams may finish for ${config.shutdownGraceSeconds} s`)
    idle.stop()
    backups.stop()
    control?.stop()
    // stops listening now; resolves once every request (streams included) is over; its stop hook writes the metering rows
    const drained = app.stop(false).then(() => true)
    const done = await Promise.race([drained, Bun.sleep(graceMs).then(() => false)])
    if (!done) {
      const ended = deps.ops.streams.endAll(new Error('the gateway is shutting down'))
      log.warn({ streams_ended: ended, in_flight: server.pendingRequests }, `shutdown: grace period over; ended ${ended} open streams with their protocol's error event`)
      // the error events go out and the streams settle; what still hangs (a client that reads nothing) is cut
      if (!(await Promise.race([drained, Bun.sleep(3000).then(() => false)]))) {
        server.stop(true)
        await Promise.race([drained, Bun.sleep(1000)])
      }
    }
    await deps.jobs.stop() // their leases given back: another node takes the jobs over at once
    await deps.metering.stop() // every queued log row and quota move on disk (again, if the stop hook did it), the database closed
    await deps.coord.close() // after the drain: the requests still running held their permits until now
    await guard?.release()
    deps.ops.relay.drain()
    log.info('stopped')
    await sink.flush()
    clearTimeout(deadline)
    process.exit(EXIT.ok)
  }
  process.on('SIGTERM', () => void stop('SIGTERM'))
  process.on('SIGINT', () => void stop('SIGINT'))
  // serving: the process stays alive on its server until a signal ends it
  return new Promise<number>(() => {})
}
