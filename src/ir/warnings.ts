import { GatewayError } from '../errors.ts'

/** Every decode/encode returns its value plus what could not be carried across. */
export interface Converted<T> {
  value: T
  warnings: string[]
}

export function converted<T>(value: T, warnings: string[] = []): Converted<T> {
  return { value, warnings }
}

/**
 * A request feature that cannot be expressed in the target protocol and cannot be dropped safely.
 * `param` names the offending field (e.g. `tools[3]`), so the client sees exactly what to change.
 */
export class UnsupportedFeatureError extends GatewayError {
  constructor(
    message: string,
    param: string,
    readonly target?: string,
  ) {
    super(400, 'unsupported_feature', message, param)
    this.name = 'UnsupportedFeatureError'
  }
}

/** A wire body that does not have the shape its protocol requires. */
export class InvalidWireError extends GatewayError {
  constructor(message: string, param?: string) {
    super(400, 'invalid_request', message, param)
    this.name = 'InvalidWireError'
  }
}
