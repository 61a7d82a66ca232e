/**
 * Whether bytes are valid content of a JSON string: no raw control character (below 0x20), and every backslash
 * one of JSON's escapes (`\" \\ \/ \b \f \n \r \t`, `\u` and four hex digits). Run over every byte of the long
 * strings a converted body keeps as the client sent them (spliced-body.ts), so it is a small WebAssembly function
 * that looks at 16 bytes at a time (SIMD) and at single bytes only around a backslash: ~0.1 ms per MB, where a
 * regular expression over a latin1 copy of the bytes cost ~0.6 in the gateway.
 *
 * The function, as WebAssembly text (the module below is its binary encoding, written out by hand):
 *
 *   (func (export "check") (param $i i32) (param $end i32) (result i32)  ;; index of the first bad byte, or -1
 *     (local $c i32) (local $m i32) (local $v v128)
 *     (loop $next
 *       (block $slow (loop $fast                       ;; 16 bytes at a time while none is < 0x20 or a backslash
 *         (br_if $slow (i32.gt_u (i32.add $i 16) $end))
 *         (local.set $v (v128.load $i))
 *         (local.set $m (i8x16.bitmask (v128.or (i8x16.lt_u $v (i8x16.splat 0x20)) (i8x16.eq $v (i8x16.splat 0x5c)))))
 *         (if $m (then (local.set $i (i32.add $i (i32.ctz $m))) (br $slow)))   ;; to the first such byte
 *         (local.set $i (i32.add $i 16)) (br $fast)))
 *       (if (i32.ge_u $i $end) (return -1))
 *       (local.set $c (i32.load8_u $i))
 *       (if (i32.lt_u $c 0x20) (return $i))
 *       (if (i32.ne $c 0x5c) (then (local.set $i (i32.add $i 1)) (br $next)))
 *       (if (i32.ge_u (i32.add $i 1) $end) (return $i))        ;; a backslash: what it escapes
 *       (local.set $c (i32.load8_u offset=1 $i))
 *       (if (i32.eq $c 0x75) (then                              ;; \u: four hex digits, all before the end
 *         (if (i32.gt_u (i32.add $i 6) $end) (return $i))
 *         (if (not (hex (i32.load8_u offset=2 $i)) ... offset=5) (return $i))
 *         (local.set $i (i32.add $i 6)) (br $next)))
 *       (if (not (one of " \ / b f n r t $c)) (return $i))
 *       (local.set $i (i32.add $i 2)) (br $next)))
 *
 * where (hex $c) is (i32.or (i32.lt_u (i32.sub $c 0x30) 10) (i32.lt_u (i32.sub (i32.or $c 0x20) 0x61) 6)).
 */

const I32 = 0x7f
const V128 = 0x7b
const get = (n: number) => [0x20, n]
const set = (n: number) => [0x21, n]
const i32 = (n: number) => [0x41, ...sleb(n)]
const SIMD = (op: number) => [0xfd, ...uleb(op)]
const [I, END, C, M, V] = [0, 1, 2, 3, 4]
const ADD = 0x6a
const SUB = 0x6b
const OR = 0x72
const EQ = 0x46
const NE = 0x47
const LT_U = 0x49
const GT_U = 0x4b
const GE_U = 0x4f
const IF = [0x04, 0x40]
const END_ = 0x0b
const RETURN = 0x0f
/** load8_u of $i + offset */
const byteAt = (offset: number) => [...get(I), 0x2d, 0x00, offset]
/** (hex c) for the byte at $i + offset, leaves an i32 */
const hexAt = (offset: number) => [
  ...byteAt(offset), ...i32(0x30), SUB, ...i32(10), LT_U,
  ...byteAt(offset), ...i32(0x20), OR, ...i32(0x61), SUB, ...i32(6), LT_U, OR,
]
const isC = (ch: string) => [...get(C), ...i32(ch.charCodeAt(0)), EQ]

const body = [
  0x03, 0x40, // loop $next (depth 0 inside)
  0x02, 0x40, // block $slow
  0x03, 0x40, // loop $fast
  ...get(I), ...i32(16), ADD, ...get(END), GT_U, 0x0d, 1, // br_if $slow
  ...get(I), ...SIMD(0x00), 0x04, 0x00, ...set(V), // v128.load align=16 offset=0 (unaligned loads are fine)
  ...get(V), ...i32(0x20), ...SIMD(0x0f), ...SIMD(0x26), // i8x16.lt_u v (splat 0x20)
  ...get(V), ...i32(0x5c), ...SIMD(0x0f), ...SIMD(0x23), // i8x16.eq v (splat 0x5c)
  ...SIMD(0x50), ...SIMD(0x64), ...set(M), // v128.or, i8x16.bitmask
  ...get(M), ...IF, ...get(I), ...get(M), 0x68, ADD, ...set(I), 0x0c, 2, END_, // i32.ctz; br $slow (from inside the if)
  ...get(I), ...i32(16), ADD, ...set(I), 0x0c, 0, // br $fast
  END_, END_,
  ...get(I), ...get(END), GE_U, ...IF, ...i32(-1), RETURN, END_,
  ...byteAt(0), ...set(C),
  ...get(C), ...i32(0x20), LT_U, ...IF, ...get(I), RETURN, END_,
  ...get(C), ...i32(0x5c), NE, ...IF, ...get(I), ...i32(1), ADD, ...set(I), 0x0c, 1, END_, // br $next (from inside the if)
  ...get(I), ...i32(1), ADD, ...get(END), GE_U, ...IF, ...get(I), RETURN, END_,
  ...byteAt(1), ...set(C),
  ...get(C), ...i32(0x75), EQ, ...IF,
  ...get(I), ...i32(6), ADD, ...get(END), GT_U, ...IF, ...get(I), RETURN, END_,
  ...hexAt(2), ...hexAt(3), 0x71, ...hexAt(4), 0x71, ...hexAt(5), 0x71, 0x45, ...IF, ...get(I), RETURN, END_, // i32.and ×3, i32.eqz
  ...get(I), ...i32(6), ADD, ...set(I), 0x0c, 1, END_,
  ...isC('"'), ...isC('\\'), OR, ...isC('/'), OR, ...isC('b'), OR, ...isC('f'), OR, ...isC('n'), OR, ...isC('r'), OR, ...isC('t'), OR,
  0x45, ...IF, ...get(I), RETURN, END_,
  ...get(I), ...i32(2), ADD, ...set(I), 0x0c, 0, // br $next
  END_, // loop $next
  0x00, // unreachable
  END_, // function
]

function uleb(n: number): number[] {
  const out: number[] = []
  do {
    let byte = n & 0x7f
    n >>>= 7
    if (n) byte |= 0x80
    out.push(byte)
  } while (n)
  return out
}

function sleb(n: number): number[] {
  const out: number[] = []
  for (;;) {
    const byte = n & 0x7f
    n >>= 7
    if ((n === 0 && !(byte & 0x40)) || (n === -1 && byte & 0x40)) return [...out, byte]
    out.push(byte | 0x80)
  }
}

const section = (id: number, content: number[]) => [id, ...uleb(content.length), ...content]
const name = (s: string) => [s.length, ...[...s].map((c) => c.charCodeAt(0))]
const code = [2, 2, I32, 1, V128, ...body] // locals: 2 × i32 ($c, $m), 1 × v128 ($v)

const MODULE = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
  ...section(1, [1, 0x60, 2, I32, I32, 1, I32]), // type: (i32, i32) -> i32
  ...section(3, [1, 0]), // one function of type 0
  ...section(5, [1, 0x00, 1]), // memory: min 1 page
  ...section(7, [2, ...name('check'), 0x00, 0, ...name('memory'), 0x02, 0]),
  ...section(10, [1, ...uleb(code.length), ...code]),
])

let instance: { check(start: number, end: number): number; memory: WebAssembly.Memory } | undefined
function wasm() {
  if (!instance) {
    const exports = new WebAssembly.Instance(new WebAssembly.Module(MODULE)).exports
    instance = { check: exports.check as (start: number, end: number) => number, memory: exports.memory as WebAssembly.Memory }
  }
  return instance
}

/** Bytes over this are checked in pieces of it: the module's memory grows to it once and stays. */
const WINDOW = 1 << 20

/**
 * Whether each range [spans[k], spans[k + 1]) of `b` is valid JSON string content. A range longer than the window
 * is checked piece by piece, each piece ending before a backslash run that could straddle it.
 */
export function validStringContents(b: Uint8Array, spans: readonly number[]): boolean {
  const { check, memory } = wasm()
  if (memory.buffer.byteLength < WINDOW + 16) memory.grow(Math.ceil((WINDOW + 16 - memory.buffer.byteLength) / 65536))
  let mem = new Uint8Array(memory.buffer)
  let used = 0
  const pending: number[] = [] // ranges copied into memory, not yet checked: [start in memory, length]
  const flush = (): boolean => {
    for (let k = 0; k < pending.length; k += 2) if (check(pending[k]!, pending[k]! + pending[k + 1]!) >= 0) return false
    pending.length = 0
    used = 0
    return true
  }
  for (let k = 0; k < spans.length; k += 2) {
    let from = spans[k]!
    const end = spans[k + 1]!
    while (from < end) {
      let to = Math.min(end, from + WINDOW)
      if (to < end) to = pieceEnd(b, from, to)
      if (used + (to - from) > WINDOW && !flush()) return false
      mem = mem.buffer === memory.buffer ? mem : new Uint8Array(memory.buffer)
      mem.set(b.subarray(from, to), used)
      pending.push(used, to - from)
      used += to - from
      from = to
    }
  }
  return flush()
}

/**
 * Where a piece of a range longer than the window ends: before `to`, at a point with no backslash in the 6 bytes
 * before it, so no escape is cut (a cut escape would only make a valid range look invalid, never the reverse).
 */
function pieceEnd(b: Uint8Array, from: number, to: number): number {
  let k = to
  while (k - 6 > from) {
    let j = k - 6
    while (j < k && b[j] !== 0x5c) j++
    if (j === k) return k
    k = j
  }
  return to
}
