/**
 * Anthropic Messages over Bedrock's InvokeModel / InvokeModelWithResponseStream. Requests are the client's
 * Anthropic body reshaped by `bedrockInvokeBody`; a non-stream answer is an Anthropic Messages body as is (the
 * Anthropic protocol decodes it); a stream is AWS event-stream framing whose chunks carry Anthropic events
 * (`InvokeStreamParser`). Errors are Bedrock's own shapes.
 */
import { parseError } from '../bedrock-converse/errors.ts'
import { bedrockInvokeBody } from './body.ts'
import { InvokeStreamParser } from './stream.ts'

export const bedrockInvoke = {
  id: 'bedrock-invoke' as const,
  /** paths under the runtime root; `{model}` is the URL-encoded model id */
  paths: { request: '/model/{model}/invoke', stream: '/model/{model}/invoke-with-response-stream' },
  framing: 'aws-event-stream' as const,
  /** the protocol whose bodies and events travel inside */
  carries: 'anthropic' as const,
  body: bedrockInvokeBody,
  createStreamParser: () => new InvokeStreamParser(),
  parseError,
}

export { BEDROCK_BETAS, BEDROCK_FIELDS, bedrockInvokeBody } from './body.ts'
export { InvokeStreamParser } from './stream.ts'
