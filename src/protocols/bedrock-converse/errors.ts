import { jsonBody, rec, str } from '../shared.ts'
import type { WireError } from '../types.ts'
import { bedrockErrorType } from './maps.ts'

/**
 * A Bedrock runtime error body → status and message. Bedrock answers `{"message": …}` (the type in the
 * `x-amzn-ErrorType` header), the AWS JSON protocol's `{"__type": "…#ValidationException", "message": …}`,
 * and for API-key failures `{"Message": …}`. The code is the error type, from `__type` or else the status.
 */
export function parseError(status: number, body: unknown): WireError {
  const b = rec(jsonBody(body))
  const message =
    str(b.message) ?? str(b.Message) ?? str(b.errorMessage) ?? (typeof body === 'string' && body ? body.slice(0, 500) : `upstream returned ${status}`)
  const type = str(b.__type) ?? str(b.code)
  // `com.amazon.coral.validate#ValidationException` or `ValidationException:http://internal.amazon.com/…`
  const code = type ? type.split('#').pop()!.split(':')[0]! : bedrockErrorType(status)
  return { status, code, message }
}
