import { endpointMap } from '../outbound/endpoints'
import type { OptionStore } from '../options/store'

const WIDGET_SCRIPT = 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit'

/** The widget's script as the browser loads it: Cloudflare's, or where PROVIDER_ENDPOINTS sends `turnstile`. */
export function turnstileScriptUrl(endpoints: ReadonlyMap<string, URL>): string {
  return endpointMap(endpoints).rewrite(new URL(WIDGET_SCRIPT)).url.href
}

/** The origin the console's page may load the widget from, while TurnstileCheckEnabled is on. */
export function turnstileOrigin(deps: { options: Pick<OptionStore, 'get'>; config: { providerEndpoints: ReadonlyMap<string, URL> } }): string | undefined {
  if (!deps.options.get<boolean>('TurnstileCheckEnabled')) return undefined
  return new URL(turnstileScriptUrl(deps.config.providerEndpoints)).origin
}
