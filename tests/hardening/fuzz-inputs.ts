import type { TSchema } from '@sinclair/typebox'
import { Kind, TransformKind } from '@sinclair/typebox'

/**
 * Deterministic input generation for the HTTP fuzz (fuzz.test.ts): one seed gives the same list of requests
 * every run, so a failure is reproduced by its index. Every input is built before anything is sent.
 */

/** mulberry32: small, fast and good enough to pick cases. */
export class Rng {
  constructor(private state: number) {}
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) | 0)
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  int(n: number): number {
    return Math.floor(this.next() * n)
  }
  chance(p: number): boolean {
    return this.next() < p
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!
  }
}

export type Identity = 'anonymous' | 'user' | 'root'

/** How a body goes on the wire. Oversized bodies are described, not held, until sent. */
export type FuzzBody =
  | { kind: 'text'; text: string }
  | { kind: 'bytes'; bytes: Uint8Array<ArrayBuffer> }
  | { kind: 'chunked'; bytes: Uint8Array<ArrayBuffer> }
  | { kind: 'oversized'; framing: 'length' | 'chunked'; size: number }

export interface FuzzInput {
  index: number
  method: string
  /** path and query, as sent */
  path: string
  /** the route pattern it was made for ('' for made-up paths) */
  route: string
  identity: Identity
  headers: Record<string, string>
  body?: FuzzBody
  /** what was done to it, for the failure report */
  note: string
}

/** A route of the app, as `createApp(deps).routes` lists it. */
export interface RouteInfo {
  method: string
  path: string
  body?: TSchema
  query?: TSchema
  params?: TSchema
}

/** A placeholder that JSON.stringify keeps as a string and `rawJson` turns into a bare token (numbers JS cannot hold). */
const RAW = '\u0001raw:'
const raw = (token: string) => `${RAW}${token}\u0001`
export function rawJson(value: unknown): string {
  return JSON.stringify(value).replace(/"\\u0001raw:([^"\\]*)\\u0001"/g, '$1')
}

export const WEIRD_STRINGS = [
  '', ' ', 'a', 'null', '0', '-1', 'true', '{}', '[]', '\u0000', 'a\u0000b', '\ud800', '\udfff x', '😀', 'ü\u202e',
  '\n\r\t', 'x'.repeat(5000), '9'.repeat(40), '1e400', '-0', '0x10', "'; DROP TABLE users;--", '../../etc/passwd', '%00',
  '<script>alert(1)</script>', '${7*7}', '__proto__', 'constructor', 'gpt-4o', 'claude-sonnet-4-5', 'gemini-2.5-flash',
  'http://127.0.0.1:1', 'file:///etc/passwd', 'sk-' + 'a'.repeat(48), '2023-06-01', 'user', 'assistant', 'system', 'tool',
]
const WEIRD_NUMBERS: unknown[] = [
  0, -1, 1, 2, 3, 5, 100, 1.5, -0.5, 2 ** 31 - 1, 2 ** 31, 2 ** 32, 2 ** 53 - 1, 2 ** 53 + 2, -(2 ** 53 + 2), 1e20, -1e20, 1e308, -1e308,
  5e-324, raw('1e400'), raw('-1e400'), raw('123456789012345678901234567890'), raw('-0'), raw('1E+2'), raw('0.1e-400'),
]

function deep(depth: number, kind: 'array' | 'object'): unknown {
  let value: unknown = 1
  for (let i = 0; i < depth; i++) value = kind === 'array' ? [value] : { a: value }
  return value
}

/** Any JSON value, with a bias to the odd ones. */
export function weirdValue(rng: Rng, depth = 0): unknown {
  switch (rng.int(depth > 2 ? 5 : 11)) {
    case 0:
      return null
    case 1:
      return rng.chance(0.5)
    case 2:
    case 3:
      return rng.pick(WEIRD_NUMBERS)
    case 4:
      return rng.pick(WEIRD_STRINGS)
    case 5:
      return []
    case 6:
      return {}
    case 7:
      return Array.from({ length: 1 + rng.int(3) }, () => weirdValue(rng, depth + 1))
    case 8:
      return Object.fromEntries(Array.from({ length: 1 + rng.int(3) }, () => [rng.pick(['type', 'text', 'a', '__proto__', 'constructor', 'content', 'role', 'id']), weirdValue(rng, depth + 1)]))
    case 9:
      return deep(rng.pick([20, 200, 2000]), rng.chance(0.5) ? 'array' : 'object')
    default:
      return rng.chance(0.5) ? Array.from({ length: 2000 }, (_, i) => i) : Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`k${i}`, i]))
  }
}

/**
 * A value the schema describes (roughly: patterns and formats are guessed from a pool). `odd` is the chance
 * that a leaf is taken from the weird pools instead; 0 gives values meant to pass, for `mutate` to break one by one.
 */
export function fromSchema(rng: Rng, schema: TSchema | undefined, odd = 0.3, depth = 0): unknown {
  if (!schema || depth > 6) return weirdValue(rng, 3)
  const weird = rng.chance(odd)
  if ((schema as any)[TransformKind] && (schema as any)[Kind] === 'String') return weird ? rng.pick(WEIRD_STRINGS) : String(1 + rng.int(3))
  switch ((schema as any)[Kind]) {
    case 'Object': {
      const out: Record<string, unknown> = {}
      const required = new Set<string>((schema as any).required ?? [])
      for (const [key, property] of Object.entries((schema as any).properties ?? {})) {
        if (required.has(key) || rng.chance(0.5)) out[key] = fromSchema(rng, property as TSchema, odd, depth + 1)
      }
      return out
    }
    case 'Array':
      return Array.from({ length: Math.max((schema as any).minItems ?? 0, rng.int(4)) }, () => fromSchema(rng, (schema as any).items, odd, depth + 1))
    case 'Union': {
      // Elysia's t.Integer is a union of a numeric string and an integer: take the integer when values should pass
      const members = (schema as any).anyOf as TSchema[]
      const typed = members.filter((m) => (m as any)[Kind] !== 'String' || !(m as any).format)
      return fromSchema(rng, rng.pick(weird || !typed.length ? members : typed), odd, depth + 1)
    }
    case 'Literal':
      return (schema as any).const
    case 'Integer':
    case 'Number': {
      const min = (schema as any).minimum ?? 0
      const max = (schema as any).maximum ?? min + 1000
      return weird ? rng.pick(WEIRD_NUMBERS) : Math.min(max, min + rng.int(10))
    }
    case 'Boolean':
      return rng.chance(0.5)
    case 'Null':
      return null
    case 'String': {
      const max = (schema as any).maxLength ?? 50
      return weird ? rng.pick(WEIRD_STRINGS) : `${rng.pick(['a', 'fuzz', 'gpt-4o', 'default', 'Name_1', 'x'])}${rng.int(100)}`.slice(0, Math.max(1, max))
    }
    case 'Record':
      return { [rng.pick(['a', 'gpt-4o', 'k'])]: weirdValue(rng, 3) }
    default:
      return weirdValue(rng, 3)
  }
}

/** Every path to a value inside `value` (objects and arrays), root excluded. */
function paths(value: unknown, prefix: (string | number)[] = [], out: (string | number)[][] = [], depth = 0): (string | number)[][] {
  if (depth > 8 || value === null || typeof value !== 'object') return out
  for (const [key, child] of Object.entries(value)) {
    const path = [...prefix, Array.isArray(value) ? Number(key) : key]
    out.push(path)
    paths(child, path, out, depth + 1)
  }
  return out
}

/** A deep copy of `value` with one field set to a wrong value, deleted, or a new field added; returns what was done. */
export function mutate(rng: Rng, value: unknown): { value: unknown; note: string } {
  const copy = structuredClone(value) as any
  const all = paths(copy)
  if (!all.length || rng.chance(0.1)) {
    if (copy && typeof copy === 'object' && !Array.isArray(copy)) {
      const key = rng.pick(['extra', '__proto__', 'constructor', 'prototype', 'model', 'stream', 'id'])
      copy[key] = weirdValue(rng)
      return { value: copy, note: `added ${key}` }
    }
    return { value: copy, note: 'unchanged' }
  }
  const path = rng.pick(all)
  let parent = copy
  for (const key of path.slice(0, -1)) parent = parent[key]
  const last = path.at(-1)!
  if (rng.chance(0.15) && !Array.isArray(parent)) {
    delete parent[last]
    return { value: copy, note: `deleted ${path.join('.')}` }
  }
  parent[last] = weirdValue(rng)
  return { value: copy, note: `wrong ${path.join('.')}` }
}

const utf8 = new TextEncoder()

/** Bytes of a JSON text made wrong on the wire: cut, NUL, invalid UTF-8, BOM, trailing junk, nesting. */
export function corrupt(rng: Rng, text: string): { body: FuzzBody; note: string } {
  const at = rng.int(text.length + 1)
  switch (rng.int(12)) {
    case 0:
      return { body: { kind: 'text', text: text.slice(0, at) }, note: `cut at ${at}` }
    case 1:
      return { body: { kind: 'text', text: text.slice(0, at) + '\u0000' + text.slice(at) }, note: 'NUL byte' }
    case 2: {
      const bad = rng.pick([[0xff], [0xc3, 0x28], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xe2, 0x82], [0xc0, 0xaf]])
      const quote = text.indexOf('"', at)
      const cut = quote === -1 ? at : quote + 1
      const bytes = new Uint8Array([...utf8.encode(text.slice(0, cut)), ...bad, ...utf8.encode(text.slice(cut))])
      return { body: { kind: 'bytes', bytes }, note: `invalid UTF-8 ${bad.map((b) => b.toString(16)).join(' ')}` }
    }
    case 3:
      return { body: { kind: 'text', text: '\ufeff' + text }, note: 'BOM' }
    case 4:
      return { body: { kind: 'text', text: text + rng.pick([' xyz', '}', ',', '\u0000', '{}']) }, note: 'trailing junk' }
    case 5: {
      const depth = rng.pick([1000, 10_000, 100_000])
      return { body: { kind: 'text', text: rng.chance(0.5) ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth) }, note: `nesting ${depth}` }
    }
    case 6:
      return { body: { kind: 'text', text: rng.pick(['', ' ', 'null', '[]', '"text"', '1', 'true', '{}', '\n', '[{}]', '{"":""}']) }, note: 'not an object' }
    case 7:
      return { body: { kind: 'text', text: text.replace(/:\s*(-?\d+(\.\d+)?)/, `:${rng.pick(['1e400', '-1e400', '99999999999999999999999', 'NaN', 'Infinity', '-0', '0x10', '01'])}`) }, note: 'bad number token' }
    case 8:
      return { body: { kind: 'text', text: text.replace(/^\{/, '{"model":1,"model":"x",') }, note: 'duplicate keys' }
    case 9:
      return { body: { kind: 'chunked', bytes: utf8.encode(text) }, note: 'chunked' }
    case 10:
      return { body: { kind: 'text', text: text.replace(/"([^"\\]{1,20})"/, `"$1${'\\u'}d800"`) }, note: 'escaped lone surrogate' }
    default:
      return { body: { kind: 'text', text: text.replace(/"([^"\\]{1,20})"/, '"$1\\x"') }, note: 'bad escape' }
  }
}
