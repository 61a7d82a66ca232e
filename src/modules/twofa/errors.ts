import { GatewayError } from '../../errors'

/** A refusal with its stable code in the envelope's data, for the console to word in the user's language. */
export function factorError(status: number, code: string, message: string): GatewayError {
  return new GatewayError(status, code, message, undefined, undefined, { code })
}

export const wrongCode = () => factorError(400, 'twofa_code_invalid', 'the code or backup code is wrong, already used, or expired')
export const notEnabled = () => factorError(400, 'twofa_not_enabled', 'two-factor authentication is not enabled for this user')
