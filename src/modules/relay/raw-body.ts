import { BadRequestError } from '../../errors'

const rawBodies = new WeakMap<Request, string>()

/**
 * Route-level parser for relay routes: keeps the exact request text (passthrough sends it on unchanged)
 * and accepts JSON whatever content type the client declared.
 */
export async function parseRawJson({ request }: { request: Request }): Promise<unknown> {
  const text = await request.text()
  rawBodies.set(request, text)
  if (!text.trim()) throw new BadRequestError('the request body is empty; a JSON object is required')
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch (error) {
    throw new BadRequestError(`the request body is not valid JSON: ${(error as Error).message}`)
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new BadRequestError('the request body must be a JSON object')
  return body
}

export function rawBodyOf(request: Request): string {
  return rawBodies.get(request) ?? ''
}
