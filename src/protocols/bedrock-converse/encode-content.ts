/** IR parts → Converse content blocks (text, image, document, toolUse, toolResult, reasoningContent, cachePoint). */
import {
  parseArguments,
  UnsupportedFeatureError,
  wholePrefix,
  type AssistantPart,
  type FilePart,
  type ImagePart,
  type Part,
  type ToolNames,
  type ToolResultPart,
  type UserPart,
} from '../../ir/index.ts'
import { parseDataUrl, rec, refusePrivateMedia } from '../shared.ts'
import { documentFormat, imageFormat, P } from './maps.ts'

export type Block = Record<string, unknown>

const TARGET = 'Bedrock Converse'
const CACHE_POINT: Block = { cachePoint: { type: 'default' } }

/** An Anthropic `cache_control` breakpoint on a part becomes a cachePoint block right after it. */
export function cachePointAfter(p: { providerOptions?: Part['providerOptions'] }): Block[] {
  return rec(p.providerOptions?.anthropic).cache_control ? [CACHE_POINT] : []
}

export function textBlocks(p: { text: string; providerOptions?: Part['providerOptions'] }): Block[] {
  // Bedrock refuses blank text blocks (a cut text whose kept start is blank is read whole first)
  return wholePrefix(p.text.trimStart(), 1).trimEnd() === '' ? [] : [{ text: p.text }, ...cachePointAfter(p)]
}

/** Document names may hold letters, digits, single spaces, hyphens, parentheses and square brackets. */
function documentName(filename: string | undefined, fallback: string): string {
  const base = (filename ?? '').replace(/\.[A-Za-z0-9]+$/, '')
  const clean = base.replace(/[^A-Za-z0-9\s\-()[\]]/g, '-').replace(/\s+/g, ' ').trim().slice(0, 200)
  return clean || fallback
}

/** Image or document block; media by URL is refused (Converse fetches nothing but `s3://` locations). */
function mediaBlock(p: ImagePart | FilePart, where: string, warnings: string[]): Block | undefined {
  let mediaType = p.mediaType
  let source: Block
  if (p.source.kind === 'url') {
    const url = p.source.url
    refusePrivateMedia(url, where, TARGET)
    const data = parseDataUrl(url)
    if (data) {
      mediaType = data.mediaType
      source = { bytes: data.data }
    } else if (url.startsWith('s3://')) source = { s3Location: { uri: url } }
    else throw new UnsupportedFeatureError(`${where}: Bedrock Converse cannot fetch media by URL (${url.slice(0, 100)}); send it inline as base64`, where, TARGET)
  } else source = { bytes: p.source.data }
  if (p.type === 'image') {
    const format = imageFormat(mediaType ?? 'image/png')
    if (!format) throw new UnsupportedFeatureError(`${where}: Bedrock takes png, jpeg, gif and webp images, not ${mediaType}`, where, TARGET)
    return { image: { format, source } }
  }
  const format = documentFormat(mediaType ?? 'application/pdf')
  if (!format) {
    warnings.push(`${where}: a file of type ${mediaType} cannot be sent to Bedrock Converse, dropped`)
    return undefined
  }
  return { document: { format, name: documentName(p.filename, `document ${where.replace(/[^0-9]+/g, ' ').trim()}`), source } }
}

export function userBlocks(parts: UserPart[], where: string, warnings: string[]): Block[] {
  const out: Block[] = []
  parts.forEach((p, i) => {
    if (p.type === 'text') out.push(...textBlocks(p))
    else {
      const b = mediaBlock(p, `${where}.content[${i}]`, warnings)
      if (b) out.push(b, ...cachePointAfter(p))
    }
  })
  return out
}

export function assistantBlocks(parts: AssistantPart[], where: string, names: ToolNames, warnings: string[]): Block[] {
  const out: Block[] = []
  parts.forEach((p, i) => {
    const at = `${where}.content[${i}]`
    switch (p.type) {
      case 'text':
        out.push(...textBlocks(p))
        break
      case 'reasoning':
        // signatures are only valid where they were made; unsigned reasoning cannot be verified by the model
        if (p.origin === P && p.redacted && p.encrypted) out.push({ reasoningContent: { redactedContent: p.encrypted } })
        else if (p.origin === P && p.signature) out.push({ reasoningContent: { reasoningText: { text: p.text, signature: p.signature } } })
        else if (p.text || p.signature || p.encrypted) warnings.push(`${at}: reasoning from ${p.origin ?? 'an unknown origin'} cannot be sent to Bedrock Converse, dropped`)
        break
      case 'tool-call':
        out.push({ toolUse: { toolUseId: p.id, name: names.call(p), input: parseArguments(p.arguments) } }, ...cachePointAfter(p))
        break
      case 'image':
        warnings.push(`${at}: image in an assistant turn dropped`)
        break
    }
  })
  return out
}

export function toolResultBlock(r: ToolResultPart, where: string, warnings: string[]): Block[] {
  const content: Block[] = []
  r.content.forEach((c, i) => {
    if (c.type === 'text') content.push(...textBlocks({ text: c.text }))
    else {
      const b = mediaBlock(c, `${where}.content[${i}]`, warnings)
      if (b) content.push(b)
    }
  })
  if (!content.length) content.push({ text: r.isError ? 'Error' : '(no output)' })
  const result: Block = { toolUseId: r.callId, content }
  if (r.isError) result.status = 'error'
  return [{ toolResult: result }, ...cachePointAfter(r)]
}
