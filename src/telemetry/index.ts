import type { Config } from '../config'
import type { Logger } from './logger'
import { createFlushMetrics, createRelayMetrics, type FlushMetrics, type RelayMetrics } from './metrics'
import { createOpenStreams, type OpenStreams } from './open-streams'
import { createRelayReport, type RelayReport } from './relay-report'

/** Scheduled backups (backup/schedule.ts), for the metrics. */
export interface BackupStats {
  /** unix ms of the last scheduled backup that succeeded (0: none yet) */
  lastSuccessAt: number
  failures: number
}

/** What an operator watches: the structured log, the metrics, the open streams, and whether the process is draining. */
export interface Ops {
  log: Logger
  /** undefined when METRICS_ENABLED=false: nothing is recorded */
  metrics: RelayMetrics | undefined
  flush: FlushMetrics
  streams: OpenStreams
  relay: RelayReport
  /** set on SIGTERM: /readyz answers 503 from then on */
  draining: boolean
  /** the moment the process started serving (ms since the epoch) */
  startedAt: number
  /** scheduled backups, when the server runs them */
  backup?: BackupStats
}

/** `isModel`: whether some channel lists a model (the routing's channel store); only those become metrics labels. */
export function createOps(config: Pick<Config, 'metricsEnabled'>, log: Logger, isModel: (model: string) => boolean): Ops {
  const ops = {
    log,
    metrics: config.metricsEnabled ? createRelayMetrics(isModel) : undefined,
    flush: createFlushMetrics(),
    streams: createOpenStreams(),
    draining: false,
    startedAt: Date.now(),
  } as Omit<Ops, 'relay'> as Ops
  // reads ops.log at each request: a test (or a reload) may swap the logger
  ops.relay = createRelayReport(ops)
  return ops
}
