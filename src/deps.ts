import type { Config } from './config'
import { createCoordination, type Coordination } from './coord'
import type { Repos } from './db/repos'
import { createMetering, type Metering } from './metering'
import { loadOptionStore, type OptionStore } from './options/store'
import { createRouting, type Routing } from './relay/routing'
import { loadRevocationList, type RevocationList } from './services/sessions/revocation-list'
import { loadOrCreateSecret } from './secrets'
import { createOps, type Ops } from './ops'
import { createLogSink, type Logger } from './ops/logger'

/** Everything a module needs, built once per app; tests build one per temp database. */
export interface AppDeps {
  config: Config
  /** the storage seam (src/db/repos): async repositories of whichever dialect the configuration named */
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
  /** What nodes share (src/coord): rate limits and login windows; in process, or through Redis with REDIS_URL. Whoever stops the app closes it. */
  coord: Coordination
}

/**
 * `repos`: from `openRepos(config)` (src/db), or a test's own. `log`: the process's logger (the server passes the
 * one it built; default: one from the config, on stdout). Async: the options and revoked sessions are read once here.
 */
export async function createDeps(config: Config, repos: Repos, log: Logger = createLogSink(config).logger): Promise<AppDeps> {
  const ops = createOps(config, log)
  const coord = await createCoordination({ url: config.redisUrl })
  const deps: Omit<AppDeps, 'routing' | 'metering' | 'ops'> = {
    config,
    repos,
    options: await loadOptionStore(repos.options),
    secrets: {
      session: loadOrCreateSecret(config.dataDir, 'session.secret', config.sessionSecret),
      crypto: loadOrCreateSecret(config.dataDir, 'crypto.secret', config.cryptoSecret),
    },
    revokedSessions: await loadRevocationList(repos.revokedSessions),
    startedAt: Date.now(),
    coord,
  }
  return {
    ...deps,
    routing: createRouting({ repo: repos.channels, cryptoSecret: deps.secrets.crypto, options: deps.options }),
    metering: createMetering(
      { options: deps.options, repos, coord },
      { onFlush: (ms, rows, failed) => (failed ? ops.flush.failed() : ops.flush.observe(ms, rows)) },
    ),
    ops,
  }
}
