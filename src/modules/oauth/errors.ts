import { GatewayError } from '../../errors'

/** An /api refusal with a stable code in the envelope's data, for the console to word. */
export function oauthError(status: number, code: string, message: string): GatewayError {
  return new GatewayError(status, code, message, undefined, undefined, { code })
}
