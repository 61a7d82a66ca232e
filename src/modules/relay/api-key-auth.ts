import { Elysia } from 'elysia'
import type { AppDeps } from '../../deps'
import { clientIpOf, type IpSource } from '../../plugins/request-context'
import { pathOf } from '../../plugins/url-path'
import { verifyToken, type KeySource, type VerifiedToken } from '../../relay/auth'

/** The key check's answer for one request: who calls, or why they are refused (thrown by `derive`). */
type Verdict = { clientIp: string; caller: VerifiedToken } | { refused: unknown }

/** What a refused caller's body parses to: nothing read; `derive` answers with the refusal before anything looks at it. */
const UNREAD = {}

/**
 * The API-key check every relay route shares. It runs before the body is read (a parse hook ahead of the route's
 * own parser), so a caller whose key is refused never has a byte of its body read or scanned, however large; the
 * refusal itself is thrown in `derive`, before the body is validated, so such a caller hears about its key first.
 * `sources` names where a route's clients put the key besides `Authorization: Bearer` (Anthropic's `x-api-key`,
 * Gemini's `x-goog-api-key` and `?key=`).
 */
export function apiKeyAuth(deps: Pick<AppDeps, 'config' | 'repos'>, name: string, sources: (path: string) => readonly KeySource[]) {
  // asked once per request, by the parse hook when the route has a body, else by derive; kept on the request's context
  // the path from the URL, not Elysia's (a segment late for a host under four characters: plugins/url-path.ts)
  const verdictOf = (request: Request, server: IpSource): Verdict | Promise<Verdict> =>
    check(deps, request, clientIpOf(request, server, deps.config.trustProxy), sources(pathOf(request.url)))
  return new Elysia({ name: `api-key-auth:${name}` })
    // Both hooks read the context's fields by name: Elysia reads a hook's source to decide what to prepare for a
    // route, and a context passed on whole makes it copy every header into an object on every request.
    .onParse({ as: 'scoped' }, (keyContext: KeyContext) => {
      // undefined: the route's own parser reads the body
      const verdict = (keyContext.keyVerdict = verdictOf(keyContext.request, keyContext.server))
      return verdict instanceof Promise ? verdict.then(unreadIfRefused) : unreadIfRefused(verdict)
    })
    // async: Elysia awaits a derive only when it can tell from its source that the function may return a promise
    .derive({ as: 'scoped' }, async (keyContext: KeyContext) => {
      // a plain value once the key and its owner are in memory (no database behind it); a promise only on a miss
      const verdict = keyContext.keyVerdict ?? verdictOf(keyContext.request, keyContext.server)
      return callerOrThrow(verdict instanceof Promise ? await verdict : verdict)
    })
}

/** The hooks' view of the request's context: the verdict rides on it from the parse hook to derive. */
interface KeyContext {
  request: Request
  server: IpSource
  keyVerdict?: Verdict | Promise<Verdict>
}

function check(deps: Pick<AppDeps, 'repos'>, request: Request, clientIp: string, sources: readonly KeySource[]): Verdict | Promise<Verdict> {
  try {
    const caller = verifyToken(deps, { headers: request.headers, clientIp, url: request.url, sources })
    return caller instanceof Promise ? caller.then((c) => ({ clientIp, caller: c }), (refused: unknown) => ({ refused })) : { clientIp, caller }
  } catch (refused) {
    return { refused }
  }
}

const unreadIfRefused = (verdict: Verdict) => ('refused' in verdict ? UNREAD : undefined)

function callerOrThrow(verdict: Verdict): { clientIp: string; caller: VerifiedToken } {
  if ('refused' in verdict) throw verdict.refused
  return verdict
}
