import { speech, transcriptions, translations } from './audio'
import { completions } from './completions'
import { embeddings } from './embeddings'
import { moderations } from './moderations'
import { rerank } from './rerank'
import { imageEdits, imageGenerations, imageVariations } from './images'
import type { Operation, OperationRequest } from './types'

/** Every operation besides chat; the relay module serves each at its path. Adding one = a folder + one line. */
export const OPERATIONS: readonly Operation<OperationRequest>[] = [embeddings as unknown as Operation<OperationRequest>, ...([imageGenerations, imageEdits, imageVariations, speech, transcriptions, translations] as unknown as Operation<OperationRequest>[]), ...([rerank, moderations, completions] as unknown as Operation<OperationRequest>[])]

export type { Operation, OperationRequest } from './types'
