import { BadRequestError, GatewayError } from '../../errors'
import { restoreDeclaredTypes } from './multipart-types'

/** What the upload parser read, kept on the request's own context (as raw-body.ts keeps a JSON body). */
interface Parsed {
  form?: FormData
  bytes: number
  problem?: GatewayError
}

/** The context of an upload route: its parser leaves the form's record there. */
export interface MultipartContext {
  request: Request
  multipart?: Parsed
}

/**
 * Route-level parser for uploads (audio transcriptions, image edits): multipart/form-data into FormData. Like
 * parseRawJson it never throws (Elysia parses before the key is checked); `assertMultipartBody` throws
 * the problem after authentication.
 */
export function parseMultipart(parseContext: MultipartContext): Promise<unknown> {
  const started = startMultipart(parseContext.request)
  // a property write, not the context handed on whole: Elysia would prepare every field of it for the route
  parseContext.multipart = started.entry
  return started.form
}

/** The upload's record and the form being read, for a parser that accepts JSON too (it keeps the record itself). */
export function startMultipart(request: Request): { entry: Parsed; form: Promise<unknown> } {
  const entry: Parsed = { bytes: Number(request.headers.get('content-length') ?? 0) }
  return { entry, form: readForm(request, entry) }
}

async function readForm(request: Request, entry: Parsed): Promise<unknown> {
  if (!(request.headers.get('content-type') ?? '').toLowerCase().startsWith('multipart/form-data')) {
    entry.problem = new BadRequestError('this route takes multipart/form-data (a file upload with its fields)')
    // read it anyway, so a body past the limit is its 413 rather than this 400 (the reading methods count)
    await request.arrayBuffer().catch((error: unknown) => {
      if (error instanceof GatewayError) entry.problem = error
    })
    return {}
  }
  try {
    // the bytes first: Bun's formData() drops each file's declared type, restored from the part headers
    const body = await request.bytes()
    entry.bytes = body.byteLength
    const type = request.headers.get('content-type')!
    entry.form = restoreDeclaredTypes(await new Response(body, { headers: { 'content-type': type } }).formData(), body, type)
  } catch (error) {
    // a chunked body past the limit is its 413
    entry.problem = error instanceof GatewayError ? error : new BadRequestError(`the multipart body could not be read: ${(error as Error).message}`)
    return {}
  }
  return entry.form
}

export function assertMultipartBody(entry: Parsed | undefined): void {
  if (!entry) throw new BadRequestError('the request body is empty; multipart/form-data is required')
  if (entry.problem) throw entry.problem
}

export function multipartBytes(entry: Parsed | undefined): number {
  return entry?.bytes ?? 0
}
