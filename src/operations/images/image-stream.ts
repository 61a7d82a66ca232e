import { UpstreamFailure } from '../../relay/failure'
import { relaySse } from '../completions/sse-relay'
import type { OperationAnswer } from '../types'
import { imageUsage } from './usage'

interface ImageStreamEvent {
  type?: unknown
  error?: { message?: unknown } | unknown
  /** Ark's `image_generation.completed`: how many images the sequence made */
  usage?: { generated_images?: unknown }
}

/**
 * A streamed image answer relayed event by event, each with its `event:` name:
 * - OpenAI's GPT image models (`stream: true`, `partial_images`): `image_generation.partial_image` /
 *   `image_edit.partial_image` previews, then one `….completed` event per image, with its token usage;
 * - Doubao Seedream on Ark: `image_generation.partial_succeeded` / `partial_failed` per image of a sequence, then
 *   `image_generation.completed` with `usage.generated_images`.
 * The bill is the images completed, as the completed events count them (at most the `n` reserved): a stream cut
 * before an image was completed (the client gone, the upstream broken off) bills none, previews not being images.
 */
export async function streamImages(response: Response, reserved: number): Promise<OperationAnswer> {
  let completed = 0
  let succeeded = 0
  const answer: OperationAnswer = { body: new ReadableStream(), contentType: 'text/event-stream', headers: { 'cache-control': 'no-cache' }, usage: imageUsage(0) }
  const bill = (images: number) => {
    answer.usage = imageUsage(Math.min(images, reserved))
  }
  answer.body = await relaySse(response.body, {
    frame(data, name) {
      const event = parse(data)
      const type = typeof event.type === 'string' ? event.type : name
      if (type === 'error' || (type === undefined && event.error !== undefined)) throw new UpstreamFailure(0, `upstream stream error: ${messageOf(event.error)}`, true)
      if (type === 'image_generation.partial_succeeded') bill(++succeeded)
      if (type === 'image_generation.completed' || type === 'image_edit.completed') {
        const generated = event.usage?.generated_images
        bill(typeof generated === 'number' && Number.isInteger(generated) && generated >= 0 ? generated : ++completed)
      }
      const content = type !== undefined && /^image_(generation|edit)\.(partial_image|partial_succeeded|partial_failed|completed)$/.test(type)
      return { frames: `${name ? `event: ${name}\n` : ''}data: ${data}\n\n`, content }
    },
    end: () => '',
    broke: (message) => {
      answer.error = message
    },
  })
  return answer
}

function parse(data: string): ImageStreamEvent {
  try {
    const parsed = JSON.parse(data) as unknown
    return typeof parsed === 'object' && parsed !== null ? (parsed as ImageStreamEvent) : {}
  } catch {
    return {}
  }
}

function messageOf(error: unknown): string {
  const message = typeof error === 'object' && error !== null ? (error as { message?: unknown }).message : error
  return typeof message === 'string' ? message.slice(0, 500) : 'unknown'
}
