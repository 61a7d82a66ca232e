import type { SplicePaths } from '../../protocols/types'

/**
 * Where a client protocol's long strings may be left in the client's bytes when its request is converted
 * (spliced-body.ts): paths such as `messages.*.content.*.text` (`*` is any array element), compiled once into
 * a small trie that json-scan.ts walks beside the body. A path names only strings its decoder passes on as
 * text or media data; a `data:` path only strings that start with `data:` (URLs: their kind is read from the
 * start, and only data URLs grow long).
 */
const enum Leaf {
  None = 0,
  Text = 1,
  DataUrl = 2,
}

export interface SpliceTrie {
  /** per node, its keyed children: key bytes and the child's index */
  keys: { name: string; key: Uint8Array; node: number }[][]
  /** per node, the child for array elements, or -1 */
  star: Int16Array
  leaf: Uint8Array
}

/** Tunables: tests lower them so every string takes this path. */
export const spliceLimits = {
  /** strings shorter than this (bytes, as sent) are parsed as usual */
  minBytes: 512,
  /**
   * bytes of a cut string kept in the decoded text (more when a data URL's header is longer): what converters read
   * of a text's start (`wholePrefix`: 5 characters for an `Error:` prefix, the first non-blank one); each byte more
   * is parsed, decoded and stringified again (16 rather than 64: ~5% of a spliced conversion)
   */
  prefixBytes: 16,
}

const encoder = new TextEncoder()

export function compileSplicePaths(paths: SplicePaths): SpliceTrie {
  const keys: SpliceTrie['keys'] = [[]]
  const star: number[] = [-1]
  const leaf: number[] = [Leaf.None]
  const add = (path: string, kind: Leaf) => {
    let node = 0
    for (const step of path.split('.')) {
      let next = step === '*' ? star[node]! : (keys[node]!.find((k) => k.name === step)?.node ?? -1)
      if (next < 0) {
        next = keys.length
        keys.push([])
        star.push(-1)
        leaf.push(Leaf.None)
        if (step === '*') star[node] = next
        else keys[node]!.push({ name: step, key: encoder.encode(step), node: next })
      }
      node = next
    }
    leaf[node] = kind
  }
  for (const path of paths.text ?? []) add(path, Leaf.Text)
  for (const path of paths.dataUrl ?? []) add(path, Leaf.DataUrl)
  return { keys, star: Int16Array.from(star), leaf: Uint8Array.from(leaf) }
}

/** The child of `node` for the key whose `len` bytes start at `at` in `b`, or -1. */
export function childByKey(trie: SpliceTrie, node: number, b: Uint8Array, at: number, len: number): number {
  for (const { key, node: child } of trie.keys[node]!) {
    if (key.length !== len) continue
    let k = 0
    while (k < len && b[at + k] === key[k]) k++
    if (k === len) return child
  }
  return -1
}

/** [d a t a :] */
const DATA = encoder.encode('data:')

/** Whether the string content at `at` (`len` bytes) is to be recorded under a leaf of this kind. */
export function spliceable(kind: number, b: Uint8Array, at: number, len: number): boolean {
  if (kind === Leaf.None || len < spliceLimits.minBytes) return false
  if (kind === Leaf.Text) return true
  for (let k = 0; k < DATA.length; k++) if (b[at + k] !== DATA[k]) return false
  return true
}
