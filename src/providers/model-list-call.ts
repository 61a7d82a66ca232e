/** The calls a provider's own model listing makes (`ModelListSpec.list`): GET with its headers, a refusal as `ModelListError`. */
import type { ModelListCall } from './types'
import { upstreamErrorMessage } from './upstream-error'

/** The vendor refused a list call (its HTTP status and message), or answered what is not JSON. */
export class ModelListError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
  }
}

/** GET `url` through the call's fetch; the JSON body, or ModelListError with the vendor's own message. */
export async function getJson(call: ModelListCall, url: string, headers: Record<string, string>): Promise<unknown> {
  const response = await call.fetch(url, { headers, redirect: 'manual', signal: AbortSignal.timeout(30_000) })
  const text = await response.text()
  if (!response.ok) throw new ModelListError(response.status, upstreamErrorMessage(response.status, text))
  try {
    return JSON.parse(text)
  } catch {
    throw new ModelListError(response.status, 'the model list is not JSON')
  }
}
