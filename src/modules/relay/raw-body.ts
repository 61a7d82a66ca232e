import { BadRequestError } from '../../errors'

interface RawBody {
  text: string
  /** why the text is not a usable JSON object, if it is not */
  problem?: BadRequestError
}

const rawBodies = new WeakMap<Request, RawBody>()

/**
 * Route-level parser for relay routes: keeps the exact request text (passthrough sends it on unchanged)
 * and accepts JSON whatever content type the client declared. It never throws: Elysia parses before
 * `derive`, so a throw here would answer a bad body before the key was checked, and its own PARSE error
 * would hide our message. The problem is kept and thrown by `assertJsonBody` after authentication.
 */
export async function parseRawJson({ request }: { request: Request }): Promise<unknown> {
  const text = await request.text()
  const entry: RawBody = { text }
  rawBodies.set(request, entry)
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
  return body
}

/** Throws the body problem parseRawJson found (or an empty body it never saw); call after auth, before validation. */
export function assertJsonBody(request: Request): void {
  const entry = rawBodies.get(request)
  if (!entry) throw new BadRequestError('the request body is empty; a JSON object is required')
  if (entry.problem) throw entry.problem
}

export function rawBodyOf(request: Request): string {
  return rawBodies.get(request)?.text ?? ''
}
