import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../deps'
import { ok } from '../../plugins/envelope'
import { clientIpOf } from '../../plugins/request-context'
import { readSessionClaims, sessionCookieOf, sessionPlugin } from '../../plugins/session'
import { Role } from '../../db/repos/user-roles'
import { manageLogHook } from '../../metering/manage-log'
import { normalizeEmail } from '../../mail/addresses'
import type { MailFlowDeps } from '../../mail/flows'
import { completePasswordReset, requestPasswordReset } from '../../mail/password-reset'
import { mailLocale, testMail } from '../../mail/templates'
import { sendVerificationCode } from '../../mail/verification'
import { changeEmail, sendEmailChangeCode } from '../../mail/email-change'
import { requireSecureVerification } from '../twofa/secure-verification'
import { checkTurnstile, TURNSTILE_TOKEN_MAX } from '../../turnstile/siteverify'
import { hashPassword, Password } from '../users/credentials'

const Email = t.String({ minLength: 3, maxLength: 254 })
const Lang = t.Optional(t.String({ maxLength: 35 }))
const MailQuery = t.Object({ email: Email, turnstile: t.Optional(t.String({ maxLength: TURNSTILE_TOKEN_MAX })), lang: Lang })
const ResetBody = t.Object({ email: Email, token: t.String({ minLength: 1, maxLength: 128 }), password: t.Optional(Password) })

/** The pieces of the app the mail flows use. */
export function mailFlowDeps(deps: AppDeps): MailFlowDeps {
  return {
    options: deps.options,
    users: deps.repos.users,
    codes: deps.repos.emailCodes,
    coord: deps.coord,
    mailer: deps.mailer,
    cryptoSecret: deps.secrets.crypto,
    onBackgroundFailure: (what, error) => deps.ops.log.warn({ err: (error as Error).message }, `${what} not sent`),
  }
}

/** new-api's mail routes: the registration code, the reset link and its use; root's test mail. */
export function mailModule(deps: AppDeps) {
  const turnstile = (token: string | undefined, ip: string) => checkTurnstile({ options: deps.options, cryptoSecret: deps.secrets.crypto, fetch: deps.outbound.fetch }, token, ip)
  return new Elysia({ name: 'mail' })
    .use(sessionPlugin(deps))
    .onAfterHandle(manageLogHook(deps, 'mail'))
    .get(
      '/api/verification',
      async ({ query, request, server }) => {
        const ip = clientIpOf(request, server, deps.config.trustProxy)
        await turnstile(query.turnstile, ip)
        await sendVerificationCode(mailFlowDeps(deps), { email: query.email, locale: mailLocale(query.lang, request.headers.get('accept-language')), ip })
        return ok(null, 'if the address can register, a code is on its way')
      },
      { query: MailQuery },
    )
    .get(
      '/api/reset_password',
      async ({ query, request, server }) => {
        const ip = clientIpOf(request, server, deps.config.trustProxy)
        await turnstile(query.turnstile, ip)
        await requestPasswordReset(mailFlowDeps(deps), { email: query.email, locale: mailLocale(query.lang, request.headers.get('accept-language')), ip })
        return ok(null, 'if an account has this address, a reset link is on its way')
      },
      { query: MailQuery },
    )
    .post(
      '/api/user/reset',
      async ({ body }) => {
        const { generated } = await completePasswordReset(mailFlowDeps(deps), body, hashPassword)
        // new-api answers the generated password; a password chosen on the page is not echoed
        return ok(generated ?? null, 'password changed: every session and the access token have ended')
      },
      { body: ResetBody },
    )
    // changing one's e-mail: a fresh secure verification, then a code to the new address (new-api's /api/oauth/email/bind)
    .post(
      '/api/user/email/code',
      async ({ body, user, clientIp, sessionJwt, request }) => {
        requireSecureVerification(await readSessionClaims(sessionJwt, sessionCookieOf(request.headers)), user.id, Date.now())
        await sendEmailChangeCode(mailFlowDeps(deps), { userId: user.id, email: body.email, locale: mailLocale(body.lang, request.headers.get('accept-language')), ip: clientIp })
        return ok(null, 'if the address is free, a code is on its way to it')
      },
      { role: Role.user, body: t.Object({ email: Email, lang: Lang }) },
    )
    .post(
      '/api/oauth/email/bind',
      async ({ body, user, sessionJwt, request }) => {
        requireSecureVerification(await readSessionClaims(sessionJwt, sessionCookieOf(request.headers)), user.id, Date.now())
        const email = await changeEmail({ ...mailFlowDeps(deps), users: deps.repos.users }, { userId: user.id, email: body.email, code: body.code })
        return ok({ email }, 'your e-mail address is changed')
      },
      { role: Role.user, body: t.Object({ email: Email, code: t.String({ minLength: 1, maxLength: 32 }) }) },
    )
    .post(
      '/api/mail/test',
      async ({ body, request }) => {
        const email = normalizeEmail(body.email)
        await deps.mailer.send(testMail(email, mailLocale(body.lang, request.headers.get('accept-language')), deps.options.get<string>('SystemName')))
        return ok(null, `test mail sent to ${email}`)
      },
      { role: Role.root, body: t.Object({ email: Email, lang: Lang }) },
    )
}
