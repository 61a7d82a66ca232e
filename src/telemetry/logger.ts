import { format } from 'node:util'
import pino, { type DestinationStream, type Logger } from 'pino'
import type { Config } from '../config'

export type { Logger }

export interface LogSink {
  logger: Logger
  /** write out what the asynchronous destination still holds, in order (shutdown); at most 2 s */
  flush(): Promise<void>
  /** the same at once, for an exit that cannot wait (a line being written may land after the rest) */
  flushSync(): void
}

/**
 * The process's structured log (pino): one JSON object a line with `time` (ISO 8601), `level` (its name) and
 * `msg`, or pino-pretty's coloured lines for a terminal. JSON lines go to stdout through sonic-boom without
 * blocking: gathered up to 4 KiB or 250 ms, then written in one go; `flush` writes out the rest at shutdown.
 * Tests pass a `destination` to read the lines.
 */
export function createLogSink(config: Pick<Config, 'logFormat' | 'logLevel'>, destination?: DestinationStream): LogSink {
  const options: pino.LoggerOptions = {
    level: config.logLevel,
    base: undefined, // no pid or hostname: the supervisor (journald, Docker) knows both
    messageKey: 'msg',
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
  }
  if (destination) return { logger: pino(options, destination), flush: async () => {}, flushSync: () => {} }
  if (config.logFormat === 'pretty') {
    // only a terminal pays for pino-pretty: required here (the bundler keeps it lazy), so a JSON gateway never evaluates it
    const pretty = require('pino-pretty') as typeof import('pino-pretty')
    const stream = pretty({ colorize: Boolean(process.stdout.isTTY), sync: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' })
    return { logger: pino(options, stream), flush: async () => {}, flushSync: () => {} }
  }
  // Lines are gathered up to 4 KiB (or 250 ms) and written together: a write per request (a thread-pool round
  // trip each) cost the relay ~0.1 ms of p50 in bench/ops-overhead.ts; batched, it is within the run's noise.
  const stdout = pino.destination({ dest: 1, sync: false, minLength: 4096, periodicFlush: 250 } as Parameters<typeof pino.destination>[0])
  return {
    logger: pino(options, stdout),
    // after the write in flight (sonic-boom's flushSync alone would write the buffered lines ahead of it, and
    // its flush(cb) does not wait with minLength 0): wait while one is in flight, then write the rest at once
    flush: async () => {
      const boom = stdout as unknown as { _writing?: boolean }
      for (let waited = 0; boom._writing && waited < 2000; waited += 5) await Bun.sleep(5)
      try {
        stdout.flushSync()
      } catch {} // nothing buffered, or stdout already gone
    },
    flushSync: () => {
      try {
        stdout.flushSync()
      } catch {}
    },
  }
}

/**
 * For the one line written per relay request: the same JSON line pino would write (`level` and `time` first,
 * `msg` last), made by the engine's own JSON.stringify and handed to the logger's destination. pino's field-by-
 * field serializer cost ~8 µs a line (~20 µs under load) against ~1-2 µs for this; the level check, the
 * destination (stdout batching, pino-pretty on a terminal, a test's capture) stay pino's. `fields` must be plain
 * JSON values.
 */
export function writeLine(logger: Logger, fields: Record<string, unknown>): void {
  const stream = (logger as unknown as Record<symbol, { write(line: string): unknown }>)[pino.symbols.streamSym]
  if (stream) stream.write(`${JSON.stringify(fields)}\n`)
}

/**
 * While serving, what the code prints with `console` becomes log lines too (log, info → info; warn → warn;
 * error → error; debug → debug), so a JSON log holds nothing but JSON lines.
 */
export function routeConsoleTo(logger: Logger): void {
  const at = (level: 'debug' | 'info' | 'warn' | 'error') => (...args: unknown[]) => {
    if (args.length === 1 && args[0] instanceof Error) logger[level]({ err: args[0] }, args[0].message)
    else logger[level](format(...args))
  }
  console.log = at('info')
  console.info = at('info')
  console.warn = at('warn')
  console.error = at('error')
  console.debug = at('debug')
}
