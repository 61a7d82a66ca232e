import { BadRequestError } from '../errors'

/**
 * How deep a request body's JSON may nest. Real bodies stay far below it (tool schemas nest a dozen levels);
 * a body nested thousands of levels deep is a few KiB of brackets that made Elysia's ValidationError spend
 * seconds of the event loop building its message (the value pretty-printed: quadratic in the depth), and past
 * ~100,000 levels any recursive walk of it overflows the stack.
 */
export const MAX_JSON_DEPTH = 128

/** A 400 when `value` nests deeper than MAX_JSON_DEPTH. Iterative, and it stops at the first container too deep. */
export function assertJsonDepth(value: unknown, max = MAX_JSON_DEPTH): void {
  if (value === null || typeof value !== 'object') return
  const stack: unknown[] = [value]
  const depths: number[] = [1]
  while (stack.length) {
    const node = stack.pop() as object
    const depth = depths.pop()!
    if (depth > max) throw new BadRequestError(`the request body nests deeper than ${max} levels`)
    const children = Array.isArray(node) ? node : Object.values(node)
    for (const child of children) {
      if (child !== null && typeof child === 'object') {
        stack.push(child)
        depths.push(depth + 1)
      }
    }
  }
}
