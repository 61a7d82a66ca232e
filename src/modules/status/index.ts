import { Elysia } from 'elysia'
import type { AppDeps } from '../../deps'
import { ok } from '../../plugins/envelope'
import { VERSION } from '../../version'
import { turnstileScriptUrl } from '../../turnstile/widget'
import { customOAuthStatus, messengerStatus, oauthStatus } from '../oauth/status'

/** Public facts a login page or client needs before anyone logs in. */
export function statusModule(deps: AppDeps) {
  return new Elysia({ name: 'status' }).get('/api/status', async () =>
    ok({
      version: VERSION,
      system_name: deps.options.get<string>('SystemName'),
      logo: deps.options.get<string>('Logo'),
      footer_html: deps.options.get<string>('Footer'),
      user_agreement_enabled: deps.options.get<string>('legal.user_agreement') !== '',
      privacy_policy_enabled: deps.options.get<string>('legal.privacy_policy') !== '',
      setup: (await deps.repos.users.count()) > 0,
      register_enabled: deps.options.get<boolean>('RegisterEnabled'),
      quota_per_unit: deps.options.get<number>('QuotaPerUnit'),
      server_address: deps.options.get<string>('ServerAddress'),
      display_in_currency: deps.options.get<boolean>('DisplayInCurrencyEnabled'),
      public_pricing_enabled: deps.options.get<boolean>('PublicPricingEnabled'),
      start_time: Math.floor(deps.startedAt / 1000),
      // new-api's fields: the login and register pages show the code field and the Turnstile widget from these
      email_verification: deps.options.get<boolean>('EmailVerificationEnabled'),
      turnstile_check: deps.options.get<boolean>('TurnstileCheckEnabled'),
      turnstile_site_key: deps.options.get<string>('TurnstileSiteKey'),
      // Cloudflare's script, or where PROVIDER_ENDPOINTS' `turnstile` entry moves it (the console's CSP allows it)
      turnstile_script_url: turnstileScriptUrl(deps.config.providerEndpoints),
      // new-api's name: the login page offers the passkey button
      passkey_login: deps.options.get<boolean>('passkey.enabled'),
      password_reset: deps.options.get<string>('SMTPServer') !== '' && deps.options.get<string>('ServerAddress') !== '',
      coordination: coordination(deps),
      ...oauthStatus(deps.options),
      ...messengerStatus(deps),
      custom_oauth_providers: await customOAuthStatus(deps.repos.customOAuth),
    }),
  )
}

/** Where limits are kept: `local` (this process), or `redis`, shared unless Redis is away (degraded: this node's own limits). */
function coordination(deps: AppDeps) {
  const { backend, shared, degraded } = deps.coord.health()
  return { backend, shared, degraded }
}
