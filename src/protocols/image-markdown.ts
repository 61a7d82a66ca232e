import type { ImagePart } from '../ir/index.ts'

/**
 * An image a model produced (Gemini's `inlineData` parts: gemini-2.5-flash-image and kin), for a client whose
 * protocol has no image output (OpenAI Chat Completions, Anthropic Messages): a markdown image with a data URL
 * in the text, as new-api answers, which chat UIs render.
 */
export function imageMarkdown(part: Pick<ImagePart, 'source' | 'mediaType'>): string {
  const url = part.source.kind === 'base64' ? `data:${part.mediaType ?? 'image/png'};base64,${part.source.data}` : part.source.url
  return `![image](${url})`
}

/** The markdown joined to text before it: a blank line between, none at the start. */
export function withImage(text: string, part: Pick<ImagePart, 'source' | 'mediaType'>): string {
  return text ? `${text}\n\n${imageMarkdown(part)}` : imageMarkdown(part)
}
