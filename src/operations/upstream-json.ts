import { UpstreamFailure } from '../relay/failure'

/** An upstream's 2xx answer as JSON; anything else fails the attempt (another channel may answer properly). */
export function upstreamJson(text: string, what: string): Record<string, unknown> {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    throw new UpstreamFailure(0, `upstream sent a ${what} answer that is not JSON: ${text.slice(0, 200)}`, true)
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new UpstreamFailure(0, `upstream sent a ${what} answer that is not a JSON object`, true)
  return json as Record<string, unknown>
}

/** Input tokens as metering's usage, for the operations that produce no text (rerank, moderations). */
export function inputOnlyUsage(tokens: number) {
  return { input: { noCache: tokens, cacheRead: 0, cacheWrite: 0 }, output: { text: 0, reasoning: 0 } }
}

/** The meter's exact count of the request's input tokens (counted on demand when the meter holds a bound). */
export function countedInput(meter: { exact: boolean; input: number; count(): number }): number {
  return meter.exact ? meter.input : meter.count()
}
