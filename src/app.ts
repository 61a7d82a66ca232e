import { Elysia } from 'elysia'
import type { AppDeps } from './deps'
import { authModule } from './modules/auth'
import { twoFactorModule } from './modules/twofa'
import { passkeysModule } from './modules/passkeys'
import { verifyModule } from './modules/twofa/verify-route'
import { bindingsModule } from './modules/oauth/bindings'
import { oauthModule } from './modules/oauth'
import { customOAuthModule } from './modules/oauth/custom/routes'
import { channelsModule } from './modules/channels'
import { codexModule } from './modules/codex'
import { optionsModule } from './modules/options'
import { cacheReadsModule } from './modules/data/cache-reads'
import { channelStatsModule } from './modules/data/channel-stats'
import { affinityCacheModule } from './modules/options/affinity-cache'
import { setupModule } from './modules/setup'
import { checklistModule } from './modules/setup/checklist'
import { statusModule } from './modules/status'
import { usersModule } from './modules/users'
import { tokensModule } from './modules/tokens'
import { createErrorRouter, type FailedRequest } from './plugins/error-routes'
import { pathOf } from './plugins/url-path'
import { relayModule, rootProbeModule } from './modules/relay'
import { geminiRelayModule } from './modules/relay/gemini'
import { operationsModule } from './modules/relay/operations'
import { responsesModule } from './modules/relay/responses'
import { registerTaskErrors, tasksModule } from './modules/tasks'
import { REALTIME_MAX_FRAME_BYTES, realtimeModule } from './modules/relay/realtime'
import { registerRelayErrors } from './modules/relay/error-shapes'
import type { RelayObserver } from './relay/types'
import { meteredHooks } from './metering/hooks'
import { logsModule } from './modules/logs'
import { dataModule } from './modules/data'
import { pricingModule } from './modules/pricing'
import { ratioSyncModule } from './modules/ratio-sync'
import { redemptionsModule } from './modules/redemptions'
import { paymentsModule } from './modules/payments'
import { subscriptionsModule } from './modules/subscriptions'
import { playgroundModule } from './modules/playground'
import { userAccessModule } from './modules/user-access'
import { requestContext } from './plugins/request-context'
import { sameOriginWrites } from './plugins/same-origin'
import { consoleModule, consoleServeOptions } from './modules/console'
import { mailModule } from './modules/mail'
import { notifyModule } from './modules/notify'
import { turnstileOrigin } from './turnstile/widget'
import { withAccountOrigins } from './modules/oauth/page-origins'
import { epayFormOrigins } from './payments/epay'
import { siteModule } from './modules/site'
import { contentOrigins } from './modules/site/logo'
import { opsModule } from './modules/ops'
import { wasSettled } from './relay/engine'

/** Compose plugins and feature modules. Tests call this with a temp database; `observe` sees every settled relay request. */
export function createApp(deps: AppDeps, observe: RelayObserver = () => {}) {
  const hooks = meteredHooks(deps.metering, observe, deps.ops.relay.settled)
  const errors = createErrorRouter()
  // the task routes' own error shapes, ahead of the OpenAI shape every other relay path takes
  registerTaskErrors(errors, deps)
  registerRelayErrors(errors, deps)
  // Bun's own body limit answers 413 with no body before any hook runs: set out of reach, the limit is ours
  // (plugins/request-context: declared lengths at once, chunked bodies while read), in each route's shape
  return new Elysia({ serve: { maxRequestBodySize: Number.MAX_SAFE_INTEGER, ...consoleServeOptions() }, websocket: { maxPayloadLength: REALTIME_MAX_FRAME_BYTES, perMessageDeflate: false } })
    // destructured on purpose (Elysia reads the parameters); caller and clientIp are the relay derive's, when it ran
    .onError(({ code, error, request, body, params, caller, clientIp, arrival }: Omit<FailedRequest, 'path'>) => {
      // the path from the URL: Elysia's is a segment late for a host under four characters (plugins/url-path.ts)
      const failed = { code, error, path: pathOf(request.url), request, body, params, caller, clientIp, arrival }
      const response = errors.render(failed, arrival?.id)
      // a relay request refused before settle saw it: its operations log line and metrics (telemetry/relay-report)
      if (!wasSettled(error)) deps.ops.relay.refused(failed)
      return response
    })
    // the background jobs this node holds the lease of (src/cluster/exclusive-jobs.ts)
    .onStart(() => (deps.jobs.start(), deps.taskPoller.start()))
    .onStop(() => (deps.taskPoller.stop(), void deps.jobs.stop()))
    .use(requestContext(deps.config))
    // writes to /api and /pg only from this instance's own pages, and only as JSON (issue #28: cross-origin writes)
    .use(sameOriginWrites(deps))
    .use(opsModule(deps))
    .use(statusModule(deps))
    .use(siteModule(deps))
    .use(setupModule(deps))
    .use(checklistModule(deps))
    .use(authModule(deps))
    .use(twoFactorModule(deps))
    .use(verifyModule(deps))
    .use(passkeysModule(deps))
    .use(oauthModule(deps))
    .use(bindingsModule(deps))
    .use(customOAuthModule(deps))
    .use(usersModule(deps))
    .use(userAccessModule(deps))
    .use(optionsModule(deps))
    .use(affinityCacheModule(deps))
    .use(mailModule(deps))
    .use(notifyModule(deps))
    .use(tokensModule(deps))
    .use(channelsModule(deps))
    .use(codexModule(deps))
    .use(logsModule(deps))
    .use(pricingModule(deps))
    .use(ratioSyncModule(deps))
    .use(dataModule(deps))
    .use(cacheReadsModule(deps))
    .use(channelStatsModule(deps))
    .use(redemptionsModule(deps))
    .use(paymentsModule(deps))
    .use(subscriptionsModule(deps))
    .use(rootProbeModule())
    .use(playgroundModule(deps, hooks))
    .use(relayModule(deps, hooks))
    .use(geminiRelayModule(deps, hooks))
    .use(operationsModule(deps, hooks))
    .use(responsesModule(deps, hooks))
    .use(tasksModule(deps, hooks))
    .use(realtimeModule(deps, hooks))
    .use(consoleModule(() => withAccountOrigins(deps, { ...contentOrigins(deps.options), widget: [turnstileOrigin(deps)].filter((o): o is string => o !== undefined), form: epayFormOrigins(deps.options) })))
}
