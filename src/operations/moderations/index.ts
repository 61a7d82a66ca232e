import type { Operation } from '../types'
import { openAiModerations } from './openai'
import { decodeModerations, type ModerationsRequest } from './request'

export type { ModerationsRequest } from './request'

/** `POST /v1/moderations`, billed per input text token. */
export const moderations: Operation<ModerationsRequest> = {
  id: 'moderations',
  path: '/v1/moderations',
  body: 'json',
  decode: decodeModerations,
  dialects: { openai: openAiModerations },
  probe: (model) => ({ model, input: 'hi' }),
}
