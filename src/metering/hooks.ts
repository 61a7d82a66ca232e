import type { RelayHooks, RelayObserver, RelayOutcome } from '../relay/types'
import type { Metering } from './index'
import type { Settled } from './settle'

/**
 * The relay's hooks with metering in them: `reserve` before the first attempt, metering's settle, then
 * `report` (the operations log line and metrics, with what was billed) and `observe` (tests collect
 * outcomes) when a request is over. Settlement never throws into a stream.
 */
export function meteredHooks(
  metering: Pick<Metering, 'reserve' | 'settle'> & Partial<Pick<Metering, 'topUp'>>,
  observe: RelayObserver = () => {},
  report?: (outcome: RelayOutcome, billed: Settled | undefined) => void,
): RelayHooks {
  // the relay does not wait for the settlement (a stream's end, a response already sent): it finishes here, and a
  // failure is logged, never thrown into the request
  const settle = (outcome: RelayOutcome): void => void finish(outcome).catch((error: unknown) => console.error(`observe ${outcome.input.requestId}: ${(error as Error).message}`))
  const finish = async (outcome: RelayOutcome): Promise<void> => {
    let billed: Settled | undefined
    try {
      billed = await metering.settle(outcome)
    } catch (error) {
      console.error(`settle ${outcome.input.requestId}: ${(error as Error).message}`)
    }
    if (report) {
      try {
        report(outcome, billed)
      } catch (error) {
        console.error(`report ${outcome.input.requestId}: ${(error as Error).message}`)
      }
    }
    observe(outcome)
  }
  return { reserve: metering.reserve, settle, topUp: metering.topUp }
}
