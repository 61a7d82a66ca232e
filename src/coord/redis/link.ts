import { RedisClient, type RedisOptions } from 'bun'
import type { Script } from './scripts'

/** Thrown (and caught by the coordination, which then answers locally) when Redis cannot answer now. */
class LinkDown extends Error {
  constructor() {
    super('Redis is unreachable')
  }
}

export interface LinkOptions {
  /** redis://, rediss:// (TLS), with user, password and database as Redis URLs carry them */
  url: string
  tls?: RedisOptions['tls']
  /** a command (or a connection attempt) slower than this counts as Redis gone */
  timeoutMs: number
  /** a message on a channel `listen` named */
  onMessage(channel: string, message: string): void
  /** Redis answers again (or for the first time): resubscribed, and `up` already true */
  onUp(): Promise<void>
}

interface Pending {
  at: number
  reject(error: Error): void
}

const DOWN = new LinkDown()
const isServerError = (error: unknown): boolean => (error as { code?: string })?.code === 'ERR_REDIS_SERVER_ERROR'
const describe = (error: unknown): string => (error instanceof Error ? error.message : String(error)).slice(0, 200)

/**
 * The two connections the coordination uses (commands, and the subscriber, which Redis reserves for pub/sub),
 * on Bun's built-in client. Bun's own reconnect and offline queue are off: a command while Redis is away must
 * fail at once so the caller can answer from local state, not wait in a queue. A closed connection, a failed
 * connect or a command older than `timeoutMs` marks the link down (logged once); `reconnect()` (called by the
 * coordination's periodic tick) makes fresh connections and re-subscribes. The URL is never logged.
 */
export function createRedisLink(options: LinkOptions) {
  const channels = new Set<string>()
  const pending = new Set<Pending>()
  const refusals = new Set<string>()
  let main: RedisClient | undefined
  let sub: RedisClient | undefined
  let up = false
  let since = Date.now()
  let error: string | undefined = 'not connected yet'
  let closed = false
  let everTried = false
  let everUp = false
  const listener = (message: string, channel: string) => options.onMessage(channel, message)

  const watchdog = setInterval(() => {
    const now = performance.now()
    for (const p of pending) {
      if (now - p.at < options.timeoutMs) break // oldest first
      down(new Error(`no answer within ${options.timeoutMs} ms`))
      return
    }
  }, Math.min(100, options.timeoutMs))
  watchdog.unref?.()

  const client = () => new RedisClient(options.url, { autoReconnect: false, enableOfflineQueue: false, connectionTimeout: options.timeoutMs, tls: options.tls })

  function down(cause: unknown): void {
    const m = main
    const s = sub
    main = sub = undefined
    for (const c of [m, s]) {
      if (!c) continue
      c.onclose = null
      c.close()
    }
    for (const p of pending) p.reject(DOWN)
    pending.clear()
    if (!up) return
    up = false
    since = Date.now()
    error = describe(cause)
    console.warn(`coordination: Redis is unreachable (${error}); this node applies its own limits and state until it answers again`)
  }

  async function reconnect(): Promise<boolean> {
    if (up || closed) return up
    const m = client()
    const s = client()
    try {
      await Promise.all([m.connect(), s.connect()])
      await m.send('PING', [])
      if (channels.size > 0) await s.subscribe([...channels], listener)
    } catch (cause) {
      m.close()
      s.close()
      if (!everTried) console.warn(`coordination: Redis is unreachable at start (${describe(cause)}); this node applies its own limits and state until it answers`)
      everTried = true
      error = describe(cause)
      return false
    }
    if (closed) {
      m.close()
      s.close()
      return false
    }
    m.onclose = s.onclose = (cause) => void (main === m && down(cause))
    main = m
    sub = s
    up = true
    since = Date.now()
    error = undefined
    if (everUp) console.warn('coordination: Redis answers again; limits and state are shared with the other nodes')
    everTried = everUp = true
    await options.onUp()
    return up
  }

  /** Run one command on the command connection, watched by the timeout. */
  function run(command: string, args: string[]): Promise<unknown> {
    const c = main
    if (!c || closed) return Promise.reject(DOWN)
    return new Promise((resolve, reject) => {
      const entry: Pending = { at: performance.now(), reject }
      pending.add(entry)
      c.send(command, args).then(
        (value) => {
          pending.delete(entry)
          resolve(value)
        },
        (cause: unknown) => {
          pending.delete(entry)
          if (isServerError(cause)) return reject(cause)
          if (main === c) down(cause)
          reject(DOWN)
        },
      )
    })
  }

  return {
    get up(): boolean {
      return up
    },
    state: () => ({ up, since, error }),
    reconnect,
    /** a raw command (rejects with LinkDown, or the server's error) */
    send: (command: string, args: string[]): Promise<unknown> => (up ? run(command, args) : Promise.reject(DOWN)),
    /** a script by its SHA, loaded with EVAL the first time Redis does not know it */
    async eval(script: Script, keys: string[], args: (string | number)[]): Promise<unknown> {
      if (!up) throw DOWN
      const tail = [String(keys.length), ...keys, ...args.map(String)]
      try {
        return await run('EVALSHA', [script.sha, ...tail])
      } catch (cause) {
        if (!isServerError(cause)) throw cause
        if (describe(cause).startsWith('NOSCRIPT')) return run('EVAL', [script.source, ...tail])
        if (!refusals.has(script.name)) console.error(`coordination: Redis refused the ${script.name} script: ${describe(cause)}`)
        refusals.add(script.name)
        throw cause
      }
    },
    async listen(channel: string): Promise<void> {
      channels.add(channel)
      if (up && sub) await sub.subscribe(channel, listener).catch((cause: unknown) => down(cause))
    },
    unlisten(channel: string): void {
      channels.delete(channel)
      if (up && sub) sub.unsubscribe(channel).catch(() => {})
    },
    close(): void {
      closed = true
      clearInterval(watchdog)
      if (up) [up, since, error] = [false, Date.now(), 'closed']
      const m = main
      const s = sub
      main = sub = undefined
      for (const c of [m, s]) {
        if (!c) continue
        c.onclose = null
        c.close()
      }
      for (const p of pending) p.reject(DOWN)
      pending.clear()
    },
  }
}

export type RedisLink = ReturnType<typeof createRedisLink>
