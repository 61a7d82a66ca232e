import type { Operation } from '../types'
import { decodeImageEdit, type ImageEditRequest } from './edit-request'
import { decodeImageGeneration, type ImageGenerationRequest } from './generation-request'
import { dashscopeImageGeneration } from './dashscope'
import { imagenGeneration } from './imagen'
import { openAiImageEdit, openAiImageGeneration, openAiImageVariation } from './openai'
import { decodeImageVariation, type ImageVariationRequest } from './variation-request'

export type { ImageEditRequest } from './edit-request'
export type { ImageGenerationRequest } from './generation-request'
export type { ImageVariationRequest } from './variation-request'

/** `POST /v1/images/generations`, billed per image by size and quality. */
export const imageGenerations: Operation<ImageGenerationRequest> = {
  id: 'image-generations',
  path: '/v1/images/generations',
  body: 'json',
  decode: decodeImageGeneration,
  dialects: { openai: openAiImageGeneration, imagen: imagenGeneration, dashscope: dashscopeImageGeneration },
}

/** `POST /v1/images/edits` (multipart), billed like generations. */
export const imageEdits: Operation<ImageEditRequest> = {
  id: 'image-edits',
  path: '/v1/images/edits',
  body: 'multipart',
  decode: decodeImageEdit,
  dialects: { openai: openAiImageEdit },
}

/** `POST /v1/images/variations` (multipart, dall-e-2), billed per image by size. */
export const imageVariations: Operation<ImageVariationRequest> = {
  id: 'image-variations',
  path: '/v1/images/variations',
  body: 'multipart',
  decode: decodeImageVariation,
  dialects: { openai: openAiImageVariation },
}
