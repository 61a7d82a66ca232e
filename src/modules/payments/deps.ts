import type { AppDeps } from '../../deps'
import { createSecretBox } from '../../crypto/secret-box'
import { isSecureRequest } from '../../plugins/session'
import type { PaymentDeps } from '../../payments/types'

/** The narrow pieces the payment services take, built once per app. */
export function paymentDeps(deps: AppDeps): PaymentDeps {
  return { options: deps.options, repos: deps.repos, fetch: deps.outbound.fetch, box: createSecretBox(deps.secrets.crypto), now: () => Math.floor(deps.clock.now() / 1000) }
}

type Server = Parameters<typeof isSecureRequest>[2]

/**
 * The address providers call back and send the browser back to: CustomCallbackAddress, else ServerAddress, else
 * the address this request came to (scheme as the session cookie reads it).
 */
export function callbackBase(deps: AppDeps, request: Request, server: Server): string {
  const configured = deps.options.get<string>('CustomCallbackAddress') || deps.options.get<string>('ServerAddress')
  if (configured) return configured
  const host = request.headers.get('host') ?? new URL(request.url).host
  return `${isSecureRequest(deps, request, server) ? 'https' : 'http'}://${host}`
}
