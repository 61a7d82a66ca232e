import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createApp } from '../../../src/app'
import { Role } from '../../../src/db/repos/user-roles'
import { addUser, login } from '../../helpers/accounts'
import { call, startTestApp, type TestApp } from '../../helpers/test-app'

const PUBLIC = 0
/** Authenticated by an API key (`sk-…`), not by a session: every session caller without a key gets 401. */
const API_KEY = -1
/** The lowest role each management route admits. A new /api route fails the first test until it is listed here. */
const MIN_ROLE: Record<string, number> = {
  'GET /api/status': PUBLIC,
  'GET /api/notice': PUBLIC,
  'GET /api/about': PUBLIC,
  'GET /api/home_page_content': PUBLIC,
  'GET /api/user-agreement': PUBLIC,
  'GET /api/privacy-policy': PUBLIC,
  'GET /api/setup': PUBLIC,
  'POST /api/setup': PUBLIC,
  'POST /api/user/login': PUBLIC,
  'POST /api/user/register': PUBLIC,
  'GET /api/user/logout': PUBLIC,
  'POST /api/user/logout_all': Role.user,
  'GET /api/user/session': PUBLIC,
  // sign-in providers: anyone may start and finish a flow (a binding checks the session inside)
  'GET /api/oauth/state': PUBLIC,
  'GET /api/oauth/:provider': PUBLIC,
  'GET /api/oauth/telegram/login': PUBLIC,
  'GET /api/oauth/telegram/bind': Role.user,
  'GET /api/oauth/wechat': PUBLIC,
  'POST /api/oauth/wechat/bind': Role.user,
  'POST /api/user/email/code': Role.user,
  'POST /api/oauth/email/bind': Role.user,
  'POST /api/ratio_sync/fetch': Role.root,
  'POST /api/ratio_sync/apply': Role.root,
  'GET /api/mj/self': Role.user,
  'GET /api/mj/': Role.admin,
  'GET /api/task/self': Role.user,
  'GET /api/task/': Role.admin,
  'GET /api/task/self/:task_id/content': Role.user,
  'GET /api/task/:task_id/content': Role.admin,
  'GET /api/user/oauth/bindings': Role.user,
  'DELETE /api/user/bindings/:binding_type': Role.user,
  'GET /api/user/:id/oauth/bindings': Role.admin,
  'DELETE /api/user/:id/bindings/:binding_type': Role.admin,
  // custom sign-in providers: root's, as in new-api
  'GET /api/custom-oauth-provider/': Role.root,
  'GET /api/custom-oauth-provider/:id': Role.root,
  'POST /api/custom-oauth-provider/': Role.root,
  'PUT /api/custom-oauth-provider/:id': Role.root,
  'DELETE /api/custom-oauth-provider/:id': Role.root,
  'POST /api/custom-oauth-provider/discovery': Role.root,
  'GET /api/user/self': Role.user,
  'PUT /api/user/self': Role.user,
  'GET /api/user/token': Role.user,
  'GET /api/user/aff': Role.user,
  'POST /api/user/aff_transfer': Role.user,
  'GET /api/user/models': Role.user,
  'GET /api/user/self/groups': Role.user,
  'GET /api/token/': Role.user,
  'POST /api/token/': Role.user,
  'PUT /api/token/': Role.user,
  'GET /api/token/search': Role.user,
  'GET /api/token/:id': Role.user,
  'DELETE /api/token/:id': Role.user,
  'POST /api/token/batch': Role.user,
  'GET /api/user/': Role.admin,
  'POST /api/user/': Role.admin,
  'PUT /api/user/': Role.admin,
  'GET /api/user/search': Role.admin,
  'GET /api/user/:id': Role.admin,
  'DELETE /api/user/:id': Role.admin,
  'GET /api/user/2fa/status': Role.user,
  'POST /api/user/2fa/setup': Role.user,
  'POST /api/user/2fa/enable': Role.user,
  'POST /api/user/2fa/disable': Role.user,
  'POST /api/user/2fa/backup_codes': Role.user,
  'POST /api/user/login/2fa': PUBLIC,
  'DELETE /api/user/:id/2fa': Role.admin,
  'POST /api/verify': Role.user,
  'GET /api/user/passkey': Role.user,
  'POST /api/user/passkey/register/begin': Role.user,
  'POST /api/user/passkey/register/finish': Role.user,
  'DELETE /api/user/passkey': Role.user,
  'POST /api/user/passkey/login/begin': PUBLIC,
  'POST /api/user/passkey/login/finish': PUBLIC,
  'POST /api/user/passkey/verify/begin': Role.user,
  'POST /api/user/passkey/verify/finish': Role.user,
  'DELETE /api/user/:id/reset_passkey': Role.admin,
  'POST /api/user/manage': Role.admin,
  'GET /api/channel/': Role.admin,
  'POST /api/channel/': Role.admin,
  'PUT /api/channel/': Role.admin,
  'GET /api/channel/search': Role.admin,
  'GET /api/channel/models': Role.admin,
  'GET /api/channel/tags': Role.admin,
  'GET /api/channel/:id': Role.admin,
  'DELETE /api/channel/:id': Role.admin,
  'POST /api/channel/batch': Role.admin,
  'POST /api/channel/batch/tag': Role.admin,
  'PUT /api/channel/tag': Role.admin,
  'POST /api/channel/tag/enabled': Role.admin,
  'POST /api/channel/tag/disabled': Role.admin,
  'GET /api/channel/test': Role.admin,
  'GET /api/channel/test/:id': Role.admin,
  'GET /api/channel/fetch_models/:id': Role.admin,
  'GET /api/channel/update_balance': Role.admin,
  'GET /api/channel/update_balance/:id': Role.admin,
  'POST /api/channel/fetch_models': Role.admin,
  'POST /api/channel/copy/:id': Role.admin,
  'POST /api/channel/upstream_updates/detect': Role.admin,
  'POST /api/channel/upstream_updates/detect_all': Role.admin,
  'POST /api/channel/upstream_updates/apply': Role.admin,
  'POST /api/channel/codex/oauth/start': Role.admin,
  'POST /api/channel/codex/oauth/complete': Role.admin,
  'POST /api/channel/:id/codex/oauth/start': Role.admin,
  'POST /api/channel/:id/codex/oauth/complete': Role.admin,
  'POST /api/channel/:id/codex/refresh': Role.admin,
  'GET /api/channel/:id/codex/usage': Role.admin,
  'GET /api/setup/checklist': Role.admin,
  'GET /api/option/': Role.root,
  'PUT /api/option/': Role.root,
  'GET /api/option/channel_affinity_cache': Role.root,
  'DELETE /api/option/channel_affinity_cache': Role.root,
  'GET /api/verification': PUBLIC,
  'GET /api/reset_password': PUBLIC,
  'POST /api/user/reset': PUBLIC,
  'POST /api/mail/test': Role.root,
  'GET /api/user/setting': Role.user,
  'PUT /api/user/setting': Role.user,
  'POST /api/user/setting/test': Role.user,
  'GET /api/log/': Role.admin,
  'GET /api/log/self': Role.user,
  'GET /api/log/stat': Role.admin,
  'GET /api/log/self/stat': Role.user,
  'GET /api/log/export': Role.admin,
  'GET /api/log/self/export': Role.user,
  'GET /api/usage/token/': API_KEY,
  'GET /api/pricing': Role.user,
  'GET /api/data/': Role.admin,
  'GET /api/data/self': Role.user,
  'GET /api/data/cache_reads': Role.admin,
  'GET /api/data/cache_reads/self': Role.user,
  'GET /api/data/channel_stats': Role.admin,
  'GET /api/redemption/': Role.admin,
  'POST /api/redemption/': Role.admin,
  'PUT /api/redemption/': Role.admin,
  'GET /api/redemption/search': Role.admin,
  'GET /api/redemption/:id': Role.admin,
  'DELETE /api/redemption/:id': Role.admin,
  'DELETE /api/redemption/invalid': Role.admin,
  'POST /api/user/topup': Role.user,
  // two console routes that were missing here (the first test failed on them before)
  'GET /api/channel/:id/keys': Role.admin,
  'GET /api/pricing/models': Role.admin,
  // online top-up (issue #32): the providers' posts are authenticated by their signature, not a session
  'GET /api/user/topup/info': Role.user,
  'POST /api/user/amount': Role.user,
  'POST /api/user/stripe/amount': Role.user,
  'POST /api/user/pay': Role.user,
  'POST /api/user/stripe/pay': Role.user,
  'POST /api/user/creem/pay': Role.user,
  'GET /api/user/topup/self': Role.user,
  'GET /api/user/topup': Role.admin,
  'POST /api/user/topup/complete': Role.admin,
  'POST /api/payment/test': Role.root,
  'GET /api/subscription/plans': Role.user,
  'GET /api/subscription/self': Role.user,
  'PUT /api/subscription/self/preference': Role.user,
  'POST /api/subscription/epay/pay': Role.user,
  'POST /api/subscription/stripe/pay': Role.user,
  'POST /api/subscription/creem/pay': Role.user,
  'GET /api/subscription/admin/plans': Role.admin,
  'POST /api/subscription/admin/plans': Role.root,
  'PUT /api/subscription/admin/plans/:id': Role.root,
  'PATCH /api/subscription/admin/plans/:id': Role.root,
  'POST /api/subscription/admin/bind': Role.admin,
  'GET /api/subscription/admin/users/:id/subscriptions': Role.admin,
  'POST /api/subscription/admin/users/:id/subscriptions': Role.admin,
  'POST /api/subscription/admin/user_subscriptions/:id/invalidate': Role.admin,
  'GET /api/user/epay/notify': PUBLIC,
  'POST /api/user/epay/notify': PUBLIC,
  'POST /api/stripe/webhook': PUBLIC,
  'POST /api/creem/webhook': PUBLIC,
  'GET /api/openapi.json': PUBLIC,
  'GET /api/docs': PUBLIC,
  'GET /api/docs/:file': PUBLIC,
}

let app: TestApp
const cookies: Record<string, string> = {}
const usernames: Record<string, string> = { user: 'plain', admin: 'boss', root: 'root' }

beforeAll(async () => {
  app = await startTestApp()
  await addUser(app, { username: 'plain', role: Role.user })
  await addUser(app, { username: 'boss', role: Role.admin })
  for (const [name, username] of Object.entries(usernames)) cookies[name] = await login(app, username)
})

/** Logout ends the session it is called with: it gets a session of its own, not the one the other routes use. */
const cookieFor = async (name: string, route: string) => (route === 'GET /api/user/logout' ? login(app, usernames[name]) : cookies[name]!)
/** Logging out everywhere ends every session of the caller: the routes after it get a new one. */
const ENDS_EVERY_SESSION = 'POST /api/user/logout_all'
afterAll(() => app.stop())

test('every /api route has an entry in the matrix, and every entry is a route', () => {
  const routes = createApp(app.deps)
    .routes.filter((r) => r.path.startsWith('/api'))
    .map((r) => `${r.method} ${r.path}`)
  expect(routes.filter((r) => !(r in MIN_ROLE))).toEqual([])
  expect(Object.keys(MIN_ROLE).filter((r) => !routes.includes(r))).toEqual([])
})

const callers = [
  { name: 'anonymous', role: PUBLIC },
  { name: 'user', role: Role.user },
  { name: 'admin', role: Role.admin },
  { name: 'root', role: Role.root },
]

describe.each(callers)('as $name', ({ name, role }) => {
  for (const [route, min] of Object.entries(MIN_ROLE)) {
    test(route, async () => {
      const [method, path] = route.split(' ') as [string, string]
      // ids that exist for nobody: the call proves access without touching real data
      const target = path.replace(':id', '999999')
      const body = method === 'GET' || method === 'DELETE' ? undefined : {}
      const headers: Record<string, string> = name === 'anonymous' ? {} : { cookie: await cookieFor(name, route) }
      const res = await call(app, method, target, body, headers)
      if (route === ENDS_EVERY_SESSION && name !== 'anonymous') cookies[name] = await login(app, usernames[name])
      expect(res.status).toBeLessThan(500)
      expect(res.body?.success === undefined || typeof res.body.success === 'boolean').toBe(true)
      if (min === API_KEY) {
        expect(res.status).toBe(401)
        expect(res.body.success).toBe(false)
      } else if (role < min) {
        expect(res.status).toBe(role === PUBLIC ? 401 : 403)
        expect(res.body.success).toBe(false)
      } else {
        expect([401, 403]).not.toContain(res.status)
      }
    })
  }
})
