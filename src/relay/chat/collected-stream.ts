import { collect, type IrResponse } from '../../ir'
import { SseParser } from '../../protocols/sse'
import type { UpstreamProtocol } from '../../protocols/types'
import { UpstreamFailure } from '../failure'
import { maskSecrets } from '../mask'

/**
 * A non-stream client's answer from an upstream that answers only as a stream (`streamsOnly`, Coze): the whole
 * stream read, decoded by the protocol and folded into one response. An error event in it fails the attempt.
 */
export function collectedAnswer(protocol: UpstreamProtocol, text: string, key: string): IrResponse {
  const parser = new SseParser()
  const events = [...parser.push(text), ...parser.end()]
  if (events.length === 0) throw new UpstreamFailure(0, `upstream sent a body that is not an event stream: ${maskSecrets(text.slice(0, 200), key)}`, true)
  const decoder = protocol.createStreamDecoder()
  const answer = collect([...events.flatMap((event) => decoder.push(event)), ...decoder.end()])
  // the upstream said it failed before the client got anything: like a 5xx, another channel may answer
  if (answer.error) throw new UpstreamFailure(answer.error.status ?? 502, maskSecrets(answer.error.message, key), true)
  return answer
}
