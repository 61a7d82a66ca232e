import type { Env } from '../config'
import { askRunning, askStatus, ControlError, controlActions } from './control'
import type { TokenFieldsInput } from '../services/tokens/token-fields'
import { commandConfig, DATA_OPTIONS, EXIT, parseCommandArgs, UsageError } from './args'
import { CommandError, withRepos } from './database'

export const CREATE_TOKEN_HELP = `Usage: tollgate create-token --user <username> [--name NAME] [--quota-usd D | --quota N | --unlimited]
                             [--expires DATE] [--models a,b] [--group G] [--allow-ips LIST] [--data-dir DIR]

Create an API key (sk-…) for a user and print it, alone, on stdout (it is shown only this once; only its hash
is kept). Works whether the gateway runs or not.

  --user NAME      whose key it is (required)
  --name NAME      the key's name (default: cli)
  --quota-usd D    US$ the key may spend (made quota units at the instance's QuotaPerUnit, as the console does)
  --quota N        the same in quota units (500000 = US$1 at the default QuotaPerUnit); default: unlimited
  --unlimited      no quota limit of its own (the user's balance still applies)
  --expires DATE   2026-12-31, an ISO time or unix seconds; default: never
  --models LIST    only these models (comma-separated)
  --group G        the key's group (default: the user's)
  --allow-ips LIST only from these IPs or CIDR ranges (comma-separated)
  --data-dir DIR   the data directory (default: DATA_DIR or ./data; SQLITE_PATH and DATABASE_URL are honoured)

  KEY=$(tollgate create-token --user alice --name ci --quota-usd 10 --expires 2026-12-31)

Exit codes: 0 created, 1 failed (no such user, a refused field, no database), 2 usage.
`

export async function runCreateToken(argv: readonly string[], env: Env): Promise<number> {
  const parsed = parseCommandArgs(
    'create-token',
    argv,
    {
      ...DATA_OPTIONS,
      user: { type: 'string' },
      name: { type: 'string' },
      quota: { type: 'string' },
      'quota-usd': { type: 'string' },
      unlimited: { type: 'boolean' },
      expires: { type: 'string' },
      models: { type: 'string' },
      group: { type: 'string' },
      'allow-ips': { type: 'string' },
    },
    { min: 0, max: 0 },
  )
  if (parsed.values.help) return void console.log(CREATE_TOKEN_HELP), EXIT.ok
  // on PostgreSQL too: the write goes to the shared database, and with REDIS_URL every node hears of it
  const config = commandConfig(parsed, env, { postgres: 'allowed' })
  const v = parsed.values as Record<string, string | boolean | undefined>
  if (typeof v.user !== 'string' || !v.user) throw new UsageError('create-token: --user <username> is required')
  const limits = [v.quota, v['quota-usd'], v.unlimited].filter((value) => value !== undefined)
  if (limits.length > 1) throw new UsageError('create-token: --quota-usd, --quota and --unlimited exclude each other')
  const fields: TokenFieldsInput = { name: typeof v.name === 'string' ? v.name : 'cli', unlimited_quota: v.quota === undefined && v['quota-usd'] === undefined, remain_quota: 0, expired_time: -1 }
  if (typeof v.quota === 'string') {
    const quota = Number(v.quota)
    if (!Number.isSafeInteger(quota) || quota < 0) throw new UsageError(`create-token: --quota must be a whole number ≥ 0, got ${v.quota}`)
    fields.remain_quota = quota
  }
  let quotaUsd: number | undefined
  if (typeof v['quota-usd'] === 'string') {
    quotaUsd = Number(v['quota-usd'])
    if (!/^\d+(\.\d+)?$/.test(v['quota-usd']) || !Number.isFinite(quotaUsd)) throw new UsageError(`create-token: --quota-usd must be an amount ≥ 0 like 10 or 2.5, got ${v['quota-usd']}`)
  }
  if (typeof v.expires === 'string' && v.expires !== 'never') fields.expired_time = parseTime(v.expires)
  if (typeof v.models === 'string') {
    fields.model_limits_enabled = true
    fields.model_limits = v.models
  }
  if (typeof v.group === 'string') fields.group = v.group
  if (typeof v['allow-ips'] === 'string') fields.allow_ips = v['allow-ips']
  try {
    const running = await askStatus(config)
    const created = running
      ? await askRunning<{ key: string; id: number; name: string }>(config, 'create-token', { username: v.user, fields, quota_usd: quotaUsd })
      : await withRepos(config, (repos) => controlActions({ repos }).createToken(v.user as string, fields, quotaUsd))
    console.log(created.key)
    console.error(`API key "${created.name}" (id ${created.id}) created for ${v.user}: it is shown only this once`)
    return EXIT.ok
  } catch (error) {
    if (!(error instanceof ControlError || error instanceof CommandError)) throw error
    console.error(`tollgate create-token: ${error.message}`)
    return EXIT.failed
  }
}

/** `2026-12-31` (end of that day, UTC), an ISO date-time, or unix seconds → unix seconds. */
function parseTime(text: string): number {
  const t = text.trim()
  if (/^\d{9,11}$/.test(t)) return Number(t)
  const ms = /^\d{4}-\d{2}-\d{2}$/.test(t) ? Date.parse(`${t}T23:59:59Z`) : Date.parse(t)
  if (!Number.isFinite(ms)) throw new UsageError(`create-token: --expires wants a date (2026-12-31), an ISO time or unix seconds, got ${text}`)
  return Math.floor(ms / 1000)
}
