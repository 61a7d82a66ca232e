import { REFRESH_EVERY_MS, refreshDueCodexChannels } from './codex/credentials'
import type { Config } from './config'
import { exclusiveJobs, type JobHolding } from './cluster/exclusive-jobs'
import { upgradeSweepJob } from './subscriptions/upgrade'
import { subscribeInvalidations } from './cluster/invalidations'
import { periodic } from './cluster/periodic'
import { publishingRepos } from './cluster/publishing-repos'
import { keyPayload, Topic } from './cluster/topics'
import { createCoordination, type Coordination } from './coord'
import type { Repos } from './db/repos'
import { createMetering, type Metering } from './metering'
import { loadOptionStore, type OptionStore } from './options/store'
import { endpointMap } from './outbound/endpoints'
import { createOutbound, type Outbound } from './outbound/fetch'
import { createRouting, type Routing } from './relay/routing'
import { createSessionAffinity, type SessionAffinity } from './relay/routing/affinity/session-affinity'
import { createResponseRegistry, type ResponseRegistry } from './relay/responses/response-registry'
import { loadRevocationList, PRUNE_INTERVAL_SECONDS, type RevocationList } from './services/sessions/revocation-list'
import { loadOrCreateSecret } from './secrets'
import { createOps, type Ops } from './telemetry'
import { createLogSink, type Logger } from './telemetry/logger'
import { setHashLimits } from './modules/users/hash-queue'
import { createMailer, type Mailer } from './mail/mailer'
import { createTaskPoller, type TaskPoller } from './tasks/service'
import { createNotifier, type Notifier } from './notify/notifier'

/** Everything a module needs, built once per app; tests build one per temp database. */
export interface AppDeps {
  config: Config
  /** the storage seam (src/db/repos): async repositories of whichever dialect the configuration named; with REDIS_URL each write other nodes cache publishes (src/cluster) */
  repos: Repos
  options: OptionStore
  secrets: { session: string; crypto: string }
  /** Session ids ended by logout (in memory, persisted): the session check reads no database. */
  revokedSessions: RevocationList
  startedAt: number
  /** Every outbound call (relay, channel test, model lists, token endpoints) dials through it: src/outbound. */
  outbound: Outbound
  /** Channel cache (keys decrypted), planRoute, health tracking, probe. */
  routing: Routing
  /** Prices, quota reservation and settlement, rate limits, the usage log writer, log retention. */
  metering: Metering
  /** The structured log, metrics, open streams and the draining flag (src/telemetry). */
  ops: Ops
  /** What nodes share (src/coord): limits, login windows, invalidations, job leases, channel failures; in process, or through Redis with REDIS_URL. Whoever stops the app closes it. */
  coord: Coordination
  /** The background jobs (channel probe, log retention, session pruning, upstream model check), each run by one node at a time; the app starts and stops them. */
  jobs: JobHolding
  /** The scheduled upstream model check's run, set by the channels module (deps.ts may not import the modules). */
  upstreamModelCheck: { run(): Promise<unknown> }
  /** Mail through the SMTP options (src/mail), dialled by the outbound guard's SMTP side. */
  mailer: Mailer
  /** Session affinity: a coding agent's turns pinned to one channel and key (relay/routing/affinity). */
  affinity: SessionAffinity
  /** Where stored OpenAI responses live: the channel and key that created each (relay/responses). */
  responses: ResponseRegistry
  /** Midjourney and Suno tasks polled at their upstreams, shared by the nodes under per-task leases (src/tasks); the app starts and stops it. */
  taskPoller: TaskPoller
  /** Notifications (src/notify): quota low, channel disabled, channel balance low, by e-mail or signed webhook, queued off the request path. */
  notifier: Notifier
  /** Wall-clock milliseconds for what crosses a period (order expiry, plan periods); a test sets it instead of sleeping. */
  clock: { now(): number }
}

/**
 * `repos`: from `openRepos(config)` (src/db), or a test's own. `log`: the process's logger (the server passes the
 * one it built; default: one from the config, on stdout). Async: the options and revoked sessions are read once here.
 */
export async function createDeps(config: Config, storage: Repos, log: Logger = createLogSink(config).logger): Promise<AppDeps> {
  const coord = await createCoordination({ url: config.redisUrl })
  // one node alone (the local backend) has no one to tell: its writes publish nothing, it subscribes to nothing
  const shared = coord.health().backend !== 'local'
  // subscribed before the caches load: another node's write meanwhile is applied once they are attached
  const invalidations = shared ? await subscribeInvalidations(coord) : undefined
  const repos = shared ? publishingRepos(storage, coord.publish) : storage
  const options = await loadOptionStore(repos.options)
  // names from before the look-alike rule, or imported, get their keys (after the first start: a query that finds none)
  await storage.users.fillUsernameKeys()
  // the process's one argon2 queue follows the options of the app it serves
  setHashLimits(() => ({ concurrency: options.get<number>('PasswordHashConcurrency'), waiting: options.get<number>('PasswordHashQueue') }))
  const secrets = {
    session: loadOrCreateSecret(config.dataDir, 'session.secret', config.sessionSecret),
    crypto: loadOrCreateSecret(config.dataDir, 'crypto.secret', config.cryptoSecret),
  }
  const revokedSessions = await loadRevocationList(repos.revokedSessions)
  const outbound = createOutbound({
    allowPrivate: () => options.get<boolean>('ChannelPrivateNetworksAllowed') !== false,
    endpoints: endpointMap(config.providerEndpoints),
  })
  // events reach the notifier, built once the mailer is (below): nothing fires before the app serves
  let notifier: Notifier | undefined
  const routing = createRouting({
    fetch: outbound.fetch,
    webSocket: outbound.webSocket,
    repo: repos.channels,
    cryptoSecret: secrets.crypto,
    options,
    failureCounts: coord,
    onAutoDisabled: (channelId, name, reason) => notifier?.channelDisabled(channelId, name, reason),
    onKeyChange: shared ? (channelId, key, dead) => void coord.publish(Topic.keys, keyPayload(channelId, key, dead)) : undefined,
  })
  const ops = createOps(config, log, routing.channels.hasModel)
  // one clock for the app and metering: a test that moves it moves plan periods and order expiry alike
  const clock = { now: () => Date.now() }
  const metering = createMetering(
    { options, repos, coord, clock, onCharged: (userId, charged, quotaAfter) => notifier?.quotaCharged(userId, charged, quotaAfter) },
    { onFlush: (ms, rows, failed) => (failed ? ops.flush.failed() : ops.flush.observe(ms, rows)) },
  )
  invalidations?.attach({ users: repos.users, tokens: repos.tokens, plans: repos.subscriptions, channels: routing.channels, keys: routing, options, sessions: revokedSessions })
  // new-api's schedule: every 30 minutes on the node holding the job's lease; what it runs, the channels module sets
  const UPSTREAM_CHECK_EVERY_MS = 30 * 60 * 1000
  const upstreamModelCheck = { run: async (): Promise<unknown> => undefined }
  const jobs = exclusiveJobs(
    coord,
    [
      { name: 'channel-probe', start: routing.probe.start, stop: routing.probe.stop },
      { name: 'log-retention', start: metering.retention.start, stop: metering.retention.stop },
      // first thing once held (a node starting alone prunes at start, as before there were jobs), then hourly
      { name: 'session-prune', ...periodic('session pruning', 0, PRUNE_INTERVAL_SECONDS * 1000, revokedSessions.pruneExpired) },
      // ChatGPT sign-ins of Codex channels refreshed a day before they expire (each also under its channel's lease)
      { name: 'codex-refresh', ...periodic('codex refresh', 0, REFRESH_EVERY_MS, () => refreshDueCodexChannels({ fetch: outbound.fetch, channels: routing.channels, coord, now: clock.now })) },
      // plans that ended give back the group they raised their holder to
      upgradeSweepJob(repos, clock),
      // new-api's upstream model check, every 30 minutes: its run is bound by the channels module (upstream-schedule.ts)
      { name: 'upstream-model-check', ...periodic('upstream model check', UPSTREAM_CHECK_EVERY_MS, UPSTREAM_CHECK_EVERY_MS, () => upstreamModelCheck.run()) },
    ],
    config.jobLeaseSeconds * 1000,
  )
  const mailer = createMailer({ options, cryptoSecret: secrets.crypto })
  const affinity = createSessionAffinity({ cache: coord.affinity, options, keyOutOfRotation: routing.keyOutOfRotation })
  const taskPoller = createTaskPoller({ tasks: repos.tasks, channels: routing.channels, options, outbound, clock })
  const responses = createResponseRegistry(coord.responses, options)
  const deps: AppDeps = { config, repos, options, secrets, revokedSessions, startedAt: Date.now(), coord, outbound, routing, metering, ops, jobs, upstreamModelCheck, mailer, affinity, responses, taskPoller, notifier: undefined!, clock }
  deps.notifier = notifier = createNotifier({
    repos,
    mailer: () => deps.mailer,
    // the same guard, with its own rule for private targets: a webhook URL is any user's to set
    outbound: createOutbound({ allowPrivate: () => options.get<boolean>('WebhookPrivateNetworksAllowed') === true, endpoints: endpointMap(config.providerEndpoints) }),
    coord,
    options,
    cryptoSecret: secrets.crypto,
    warn: (message) => log.warn(message),
  })
  return deps
}
