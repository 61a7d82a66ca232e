import type { SettleHook } from '../relay/pipeline'
import type { Metering } from './index'

/**
 * The relay's hooks with metering in them: `reserve` before the first attempt, metering's settle and then
 * `observe` (tests collect outcomes) when a request is over. Settlement never throws into a stream.
 */
export function meteredHooks(metering: Pick<Metering, 'reserve' | 'settle'>, observe: SettleHook = () => {}): SettleHook {
  const settle: SettleHook = (outcome) => {
    try {
      metering.settle(outcome)
    } catch (error) {
      console.error(`settle ${outcome.input.requestId}: ${(error as Error).message}`)
    }
    observe(outcome)
  }
  settle.reserve = metering.reserve
  return settle
}
