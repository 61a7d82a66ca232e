import { chmodSync, existsSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import type { Server } from 'bun'
import type { Config } from '../config'
import type { OptionRepo } from '../db/repos'
import type { AppDeps } from '../deps'
import { GatewayError } from '../errors'
import { hashPassword, PASSWORD_MAX, PASSWORD_MIN } from '../modules/users/credentials'
import { OPTION_DEFINITIONS } from '../options/definitions'
import { createToken } from '../services/tokens/create-token'
import type { TokenFieldsInput } from '../services/tokens/token-fields'
import { VERSION } from '../version'

/**
 * The command line's way into a running gateway: a Unix socket in the data directory (mode 0600, so only the
 * service's user and root can use it, as with the data itself). Commands that change users or tokens go
 * through it when the gateway runs, so its in-memory caches (users by id with their session version, tokens)
 * stay right; when it is stopped they open the database themselves. It also tells `serve` that another
 * gateway already serves this data directory (two on one file could overspend), and `doctor` and `restore`
 * whether the gateway runs.
 */
const CONTROL_SOCKET = 'tollgate.sock'

function controlSocketPath(config: Pick<Config, 'dataDir'>): string {
  return join(config.dataDir, CONTROL_SOCKET)
}

export interface RunningStatus {
  pid: number
  version: string
  port: number | undefined
  hostname: string | undefined
  startedAt: number
  sqlitePath: string
}

/** What the command line may ask a running gateway to do. */
export interface ControlActions {
  resetPassword(username: string, password: string): Promise<{ userId: number }>
  /** `quotaUsd`: the key's limit in US$, made quota units at the stored QuotaPerUnit (it replaces fields.remain_quota) */
  createToken(username: string, fields: TokenFieldsInput, quotaUsd?: number): Promise<{ key: string; id: number; name: string }>
}

export class ControlError extends Error {
  constructor(
    message: string,
    readonly status = 400,
  ) {
    super(message)
  }
}

/** QuotaPerUnit as stored (the option's default when unset or unreadable): units per US$1. */
async function quotaPerUnit(options: OptionRepo): Promise<number> {
  const stored = Number((await options.all()).QuotaPerUnit)
  return Number.isFinite(stored) && stored > 0 ? stored : Number(OPTION_DEFINITIONS.QuotaPerUnit!.default)
}

/** The actions on a gateway's own repositories: the same code whether the gateway or the command runs them. */
export function controlActions(deps: Pick<AppDeps, 'repos'>): ControlActions {
  return {
    async resetPassword(username, password) {
      if (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX) throw new ControlError(`a password has ${PASSWORD_MIN} to ${PASSWORD_MAX} characters`)
      const user = await deps.repos.users.findByUsername(username)
      if (!user) throw new ControlError(`no user named ${JSON.stringify(username)}`, 404)
      // a new hash and a bumped session version: every session of the user ends (cached row refreshed)
      await deps.repos.users.setPassword(user.id, await hashPassword(password))
      return { userId: user.id }
    },
    async createToken(username, fields, quotaUsd) {
      const found = await deps.repos.users.findByUsername(username)
      if (!found) throw new ControlError(`no user named ${JSON.stringify(username)}`, 404)
      if (quotaUsd !== undefined) fields = { ...fields, unlimited_quota: false, remain_quota: Math.round(quotaUsd * (await quotaPerUnit(deps.repos.options))) }
      const user = (await deps.repos.users.findById(found.id))!
      try {
        const { token, key } = await createToken(deps, { user, fields })
        return { key, id: token.id, name: token.name }
      } catch (error) {
        if (error instanceof GatewayError) throw new ControlError(error.message, error.status)
        throw error
      }
    },
  }
}

/**
 * Listen on the data directory's control socket. Refuses (throws) when a live gateway answers on it; removes a
 * socket file left by one that died. Returns undefined where Unix sockets are not available (Windows), or the
 * path does not fit in a socket address.
 */
export async function startControlServer(
  config: Pick<Config, 'dataDir' | 'sqlitePath'>,
  actions: ControlActions,
  facts: () => { port?: number; hostname?: string },
): Promise<{ stop(): void } | undefined> {
  if (process.platform === 'win32') return undefined
  const path = controlSocketPath(config)
  if (Buffer.byteLength(path) > 100) {
    console.warn(`control socket: ${path} is too long for a Unix socket; commands will open the database themselves`)
    return undefined
  }
  const running = await askStatus(config)
  if (running) throw new ControlError(`another Tollgate (pid ${running.pid}) already serves ${config.dataDir}: stop it first`, 409)
  rmSync(path, { force: true })
  const startedAt = Date.now()
  const json = (data: unknown, status = 200) => Response.json(data, { status })
  const previous = process.umask(0o077) // the socket is created 0600 (chmod below makes sure)
  let server: Server<undefined>
  try {
    server = Bun.serve({
      unix: path,
      async fetch(request) {
        const url = new URL(request.url)
        try {
          if (request.method === 'GET' && url.pathname === '/status') {
            const { port, hostname } = facts()
            return json({ pid: process.pid, version: VERSION, port, hostname, startedAt, sqlitePath: config.sqlitePath } satisfies RunningStatus)
          }
          const body = (await request.json().catch(() => ({}))) as Record<string, unknown>
          if (request.method === 'POST' && url.pathname === '/reset-password') {
            console.log(`control: password of ${JSON.stringify(body.username)} reset from the command line; their sessions ended`)
            return json(await actions.resetPassword(String(body.username ?? ''), String(body.password ?? '')))
          }
          if (request.method === 'POST' && url.pathname === '/create-token') {
            const quotaUsd = typeof body.quota_usd === 'number' && Number.isFinite(body.quota_usd) && body.quota_usd >= 0 ? body.quota_usd : undefined
            const result = await actions.createToken(String(body.username ?? ''), (body.fields ?? {}) as TokenFieldsInput, quotaUsd)
            console.log(`control: token ${JSON.stringify(result.name)} (id ${result.id}) created from the command line for ${JSON.stringify(body.username)}`)
            return json(result)
          }
          return json({ error: 'no such control action' }, 404)
        } catch (error) {
          const status = error instanceof ControlError ? error.status : 500
          return json({ error: (error as Error).message }, status)
        }
      },
    })
  } finally {
    process.umask(previous)
  }
  chmodSync(path, 0o600)
  return {
    stop() {
      server.stop(true)
      rmSync(path, { force: true })
    },
  }
}

/** The running gateway's status, or undefined when none answers on the data directory's socket. */
export async function askStatus(config: Pick<Config, 'dataDir'>): Promise<RunningStatus | undefined> {
  const path = controlSocketPath(config)
  if (process.platform === 'win32' || !existsSync(path)) return undefined
  try {
    const response = await fetch('http://tollgate/status', { unix: path, signal: AbortSignal.timeout(3000) })
    return response.ok ? ((await response.json()) as RunningStatus) : undefined
  } catch {
    return undefined // a socket file nobody listens on: the gateway that made it is gone
  }
}

/** POST an action to the running gateway; throws ControlError with its message when it refuses. */
export async function askRunning<T>(config: Pick<Config, 'dataDir'>, action: string, body: unknown): Promise<T> {
  const response = await fetch(`http://tollgate/${action}`, {
    method: 'POST',
    unix: controlSocketPath(config),
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  })
  const data = (await response.json()) as T & { error?: string }
  if (!response.ok) throw new ControlError(data.error ?? `the gateway answered ${response.status}`, response.status)
  return data
}
