import type { Config } from './config'
import type { Db } from './db/sqlite/client'
import { createRepos, type Repos } from './db/repos'
import { createMetering, type Metering } from './metering'
import { createOptionStore, type OptionStore } from './options/store'
import { createRouting, type Routing } from './relay/routing'
import { createRevocationList, type RevocationList } from './services/sessions/revocation-list'
import { loadOrCreateSecret } from './secrets'
import { createOps, type Ops } from './ops'
import { createLogSink, type Logger } from './ops/logger'

/** Everything a module needs, built once per app; tests build one per temp database. */
export interface AppDeps {
  config: Config
  db: Db
  repos: Repos
  options: OptionStore
  secrets: { session: string; crypto: string }
  /** Session ids ended by logout (in memory, persisted): the session check reads no database. */
  revokedSessions: RevocationList
  startedAt: number
  /** Channel cache (keys decrypted), planRoute, health tracking, probe. */
  routing: Routing
  /** Prices, quota reservation and settlement, rate limits, the usage log writer, log retention. */
  metering: Metering
  /** The structured log, metrics, open streams and the draining flag (src/ops). */
  ops: Ops
}

/** `log`: the process's logger (the server passes the one it built; default: one from the config, on stdout). */
export function createDeps(config: Config, db: Db, log: Logger = createLogSink(config).logger): AppDeps {
  const ops = createOps(config, log)
  const repos = createRepos(db, { writerThread: config.writerThread })
  const deps: Omit<AppDeps, 'routing' | 'metering' | 'ops'> = {
    config,
    db,
    repos,
    options: createOptionStore(repos.options),
    secrets: {
      session: loadOrCreateSecret(config.dataDir, 'session.secret', config.sessionSecret),
      crypto: loadOrCreateSecret(config.dataDir, 'crypto.secret', config.cryptoSecret),
    },
    revokedSessions: createRevocationList(repos.revokedSessions),
    startedAt: Date.now(),
  }
  return {
    ...deps,
    routing: createRouting({ repo: repos.channels, cryptoSecret: deps.secrets.crypto, options: deps.options }),
    metering: createMetering(
      { options: deps.options, repos },
      { onFlush: (ms, rows, failed) => (failed ? ops.flush.failed() : ops.flush.observe(ms, rows)) },
    ),
    ops,
  }
}
