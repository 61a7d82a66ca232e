import { BadRequestError } from '../../errors'
import { MAX_JSON_DEPTH } from '../../plugins/json-depth'
import type { ProtocolId } from '../../protocols/types'
import { scanJson } from '../../relay/body/json-scan'
import { protocolFor } from '../../relay/protocol-registry'
import { bodyLimits, decodeText, scannedBody, utf8Body, watchOf, wholeBody, type RequestBody } from '../../relay/body/request-body'

/** What the route's parser read, kept on the request's own context (one object per request, passed along, no side store). */
export interface RawBody {
  bytes: Uint8Array<ArrayBuffer>
  /** what the route sees as its `body`: the parsed object, a large body's top-level fields, or `{}` for a problem */
  view: unknown
  /** the body parsed whole (small bodies, and every body of a route that parses whole) */
  parsed?: Record<string, unknown>
  /** a large chat body, scanned and not parsed */
  scanned?: RequestBody
  /** why the bytes are not a usable JSON object, if they are not */
  problem?: BadRequestError
}

/** The context of a relay route: its parser leaves the body's record there for the transform and the handler. */
export interface RawBodyContext {
  request: Request
  rawBody?: RawBody
}

const NO_BYTES = new Uint8Array(0)

/**
 * Route-level parser for relay routes: keeps the exact request bytes (passthrough sends them on unchanged)
 * and accepts JSON whatever content type the client declared. It never throws: Elysia parses before
 * `derive`, so a throw here would answer a bad body before the key was checked, and its own PARSE error
 * would hide our message. The problem is kept and thrown by `assertJsonBody` after authentication.
 * The record goes on the context by a property write: a context handed to a function whole makes Elysia prepare
 * every field of it (cookies, query, headers) for the route.
 */
export function parseRawJson(parseContext: RawBodyContext): Promise<unknown> {
  return readWholeBody(parseContext.request).then((entry) => (parseContext.rawBody = entry).view)
}

/** The body read and parsed whole. */
export async function readWholeBody(request: Request): Promise<RawBody> {
  const entry = await read(request)
  entry.view = parsedWhole(entry)
  return entry
}

/**
 * The chat routes' parser: a body up to WHOLE_BODY_BYTES is parsed whole; a larger one is scanned (structure
 * checked, top-level values located) and only its small top-level values parsed, so passthrough forwards it
 * without building it (relay/body/request-body.ts). The route's `body` is then that view of the top-level fields.
 */
export function chatJsonParser(protocol: ProtocolId) {
  const readChat = chatBodyReader(protocol)
  return (parseContext: RawBodyContext): Promise<unknown> => readChat(parseContext.request).then((entry) => (parseContext.rawBody = entry).view)
}

/** How a chat route reads its body: whole when small, scanned when large. */
export function chatBodyReader(protocol: ProtocolId): (request: Request) => Promise<RawBody> {
  const watch = watchOf(protocolFor(protocol))
  return async (request) => {
    const entry = await read(request)
    if (entry.bytes.length <= bodyLimits.wholeBytes) return withView(entry, parsedWhole(entry))
    const scan = scanJson(entry.bytes, watch)
    // JSON.parse names a problem as it always has; a body nested past the bound is checked whole, as small ones are
    if (scan.problem || scan.depth > MAX_JSON_DEPTH) return withView(entry, parsedWhole(entry))
    entry.scanned = scannedBody(entry.bytes, scan)
    entry.bytes = NO_BYTES // the scanned body holds them, and may let go of them while the upstream answers
    return withView(entry, entry.scanned.view)
  }
}

async function read(request: Request): Promise<RawBody> {
  return { bytes: utf8Body(await request.bytes()), view: undefined }
}

function withView(entry: RawBody, view: unknown): RawBody {
  entry.view = view
  return entry
}

function parsedWhole(entry: RawBody): unknown {
  const text = decodeText(entry.bytes)
  if (!text.trim()) {
    entry.problem = new BadRequestError('the request body is empty; a JSON object is required')
    return {}
  }
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch (error) {
    entry.problem = new BadRequestError(`the request body is not valid JSON: ${(error as Error).message}`)
    return {}
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    entry.problem = new BadRequestError(`the request body must be a JSON object, not ${Array.isArray(body) ? 'an array' : body === null ? 'null' : typeof body}`)
    return {}
  }
  entry.parsed = body as Record<string, unknown>
  return body
}

/** Throws the body problem the parser found (or an empty body it never saw); call after auth, before validation. */
export function assertJsonBody(entry: RawBody | undefined): void {
  if (!entry) throw new BadRequestError('the request body is empty; a JSON object is required')
  if (entry.problem) throw entry.problem
}

/** The body as text (decoded on each call). */
export function rawBodyOf(entry: RawBody | undefined): string {
  return entry ? decodeText(entry.bytes) : ''
}

/** The body as the chat pipeline reads it: bytes, top-level fields, the rest on demand. */
export function requestBodyOf(entry: RawBody | undefined, protocol: ProtocolId): RequestBody {
  if (entry?.scanned) return entry.scanned
  return wholeBody(entry?.bytes ?? new Uint8Array(), entry?.parsed ?? {}, watchOf(protocolFor(protocol)))
}
