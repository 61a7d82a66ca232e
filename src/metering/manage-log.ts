import { LogType } from '../db/repos/logs'
import type { Logger } from '../telemetry/logger'
import type { Arrival } from '../plugins/request-context'
import type { LogWriter } from './log-writer'

/** What recording a manage log needs: the log writer, and the operations log for its line (src/telemetry). */
type ManageLogDeps = { metering: { logs: Pick<LogWriter, 'push'> }; ops?: { log: Logger } }

interface ManageLogInput {
  /** who did it */
  actor: { id: number; username: string }
  /** what was done, in a sentence an admin can read; never a secret */
  content: string
  ip?: string
  requestId?: string
  /** structured details (ids, fields changed) */
  details?: Record<string, unknown>
  /** for the operations log line: the route, its status and its latency */
  route?: string
  status?: number
  latencyMs?: number
}

/** An admin action (channel, token, user or option change) as a type-3 log row, written with the next batch. */
export function recordManageLog(deps: ManageLogDeps, input: ManageLogInput): void {
  // one operations log line per management write (secrets already redacted from the details)
  const log = deps.ops?.log
  if (log?.isLevelEnabled('info')) {
    log.info(
      {
        request_id: input.requestId ?? null,
        route: input.route ?? null,
        status: input.status ?? 200,
        model: null,
        latency_ms: input.latencyMs === undefined ? null : Math.round(input.latencyMs * 1000) / 1000,
        user: input.actor.username,
        user_id: input.actor.id,
        action: input.content.slice(0, 2_000),
        ip: input.ip ?? '',
        details: input.details ?? {},
      },
      'management write',
    )
  }
  deps.metering.logs.push({
    createdAt: Math.floor(Date.now() / 1000),
    type: LogType.manage,
    userId: input.actor.id,
    username: input.actor.username,
    content: input.content.slice(0, 2_000),
    ip: input.ip ?? '',
    requestId: input.requestId ?? '',
    other: input.details ? JSON.stringify(input.details) : '',
  })
}

const SECRET_FIELD = /^(key|keys|key_text|password|original_password|access_token|secret)$/i
/** Options whose value is a secret (EpayKey, StripeApiSecret, CreemWebhookSecret, SMTPToken…): the value is redacted. */
const SECRET_OPTION = /(Key|Secret|Token|Password)$/

/** The changed fields of a request body, safe to store: secrets redacted, long text cut, nested values summarized. */
function summarizeBody(body: unknown, keepKey = false): Record<string, unknown> | undefined {
  if (Array.isArray(body)) return { items: body.length }
  if (!body || typeof body !== 'object') return undefined
  const out: Record<string, unknown> = {}
  const secretOption = keepKey && SECRET_OPTION.test(String((body as { key?: unknown }).key ?? ''))
  for (const [field, value] of Object.entries(body)) {
    if ((SECRET_FIELD.test(field) && !(keepKey && field === 'key')) || (secretOption && field === 'value')) out[field] = '[redacted]'
    else if (typeof value === 'string') out[field] = value.length > 200 ? `${value.slice(0, 200)}…` : value
    else if (Array.isArray(value)) out[field] = value.length <= 20 && value.every((v) => typeof v !== 'object') ? value : `[${value.length} items]`
    else if (value && typeof value === 'object') out[field] = '[object]'
    else out[field] = value
  }
  return out
}

interface HookContext {
  request: Request
  path: string
  route?: string
  set?: { status?: number | string }
  body?: unknown
  params?: Record<string, unknown>
  user?: { id: number; username: string }
  /** the client IP, from the session macro's resolve (plugins/session.ts) */
  clientIp?: string
  /** from the request-context hook (plugins/request-context.ts) */
  arrival?: Arrival
}

/**
 * An `onAfterHandle` hook for a management module: every successful change (any method but GET) is a
 * manage log row naming who did what to which record. Failed requests never reach after-handle.
 */
export function manageLogHook(deps: ManageLogDeps, area: string, redactBody: (body: unknown) => unknown = (body) => body) {
  // named: a test finds it on every admin write route (tests/modules/logs/manage-logs.test.ts). It names the context's
  // fields it reads: a hook that spreads the context makes Elysia prepare all of it (cookies too) on every route
  return function logManageChange(ctx: HookContext): void {
    const method = ctx.request.method
    if (method === 'GET' || method === 'HEAD' || !ctx.user) return
    const details = { ...summarizeBody(redactBody(ctx.body), area === 'option'), ...(ctx.params && Object.keys(ctx.params).length ? { params: ctx.params } : {}) }
    const began = ctx.arrival?.at
    recordManageLog(deps, {
      actor: ctx.user,
      content: `${area}: ${method} ${ctx.path}`,
      ip: ctx.clientIp,
      requestId: ctx.arrival?.id,
      details,
      route: `${method} ${ctx.route ?? ctx.path}`,
      status: typeof ctx.set?.status === 'number' ? ctx.set.status : 200,
      latencyMs: began === undefined ? undefined : performance.now() - began,
    })
  }
}
