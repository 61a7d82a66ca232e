/**
 * Whether bytes are valid content of a JSON string: no raw control character (below 0x20), and every backslash
 * one of JSON's escapes (`\" \\ \/ \b \f \n \r \t`, `\u` and four hex digits). Run over every byte of the long
 * strings a converted body keeps as the client sent them (spliced-body.ts), so it is a small WebAssembly function
 * that looks at 64 bytes at a time (SIMD), escapes included: which bytes are escaped follows from the block's
 * backslash bits (an odd run of backslashes escapes the byte after it; the carry from one block to the next is one
 * bit), so source code with an escape every ~45 bytes costs no branch per escape. Only `\u` escapes and the last
 * bytes of a range (under 64) are looked at one by one. ~0.1 ms per MB of source code; branching at each backslash
 * cost ~0.25, regular expressions over a latin1 copy ~0.6.
 *
 * The function, as WebAssembly text (the module below is its binary encoding, written out by hand):
 *
 *   (func (export "check") (param $i i32) (param $end i32) (result i32)  ;; -1, or where the content is bad
 *     (local $c i32) (local $m i32) (local $b i64) (local $e i64) (local $p i64) (local $s i64) (local $u i64) (local $v v128)
 *     (block $wide (loop $block                              ;; 64 bytes at a time; (mask64 f): f's i8x16.bitmask of each 16, as 64 bits
 *       (br_if $wide (i32.gt_u (i32.add $i 64) $end))
 *       (if (v128.any_true (v128.or (i8x16.lt_u (v128.load $i) (i8x16.splat 0x20)) ... offset=48)) (return $i))
 *       (local.set $b (i64.and (mask64 (i8x16.eq $v (i8x16.splat 0x5c))) (i64.xor $p -1)))  ;; a backslash escaped is no escape
 *       (local.set $e (i64.or (i64.shl $b 1) $p))                                             ;; bytes after a backslash
 *       (local.set $s (i64.add (i64.and $b (i64.xor (i64.or $e 0x5555…) -1)) $b))            ;; runs starting on odd bits carried
 *       (local.set $p (i64.extend_i32_u (i64.lt_u $s $b)))                                   ;; the carry: the next block's first byte
 *       (local.set $e (i64.and (i64.xor (i64.shl $s 1) 0x5555…) $e))                        ;; the escaped bytes
 *       ;; each escaped byte one of " \ / b f n r t u: equal to LETTERS at its low nibble, or b, or r
 *       (if (i64.ne (i64.and $e (i64.xor (mask64 (v128.or (i8x16.eq $v (i8x16.swizzle LETTERS (v128.and $v 15))) (i8x16.eq $v b) (i8x16.eq $v r))) -1)) 0) (return $i))
 *       (local.set $u (i64.and $e (mask64 (i8x16.eq $v (i8x16.splat 0x75)))))
 *       (block $done (loop $each                              ;; each escaped u: four hex digits after it, before the end
 *         (br_if $done (i64.eqz $u))
 *         (local.set $c (i32.add $i (i32.wrap_i64 (i64.ctz $u))))
 *         (if (i32.gt_u (i32.add $c 5) $end) (return $c))
 *         (if (not (hex (i32.load8_u offset=1 $c)) ... offset=4) (return $c))
 *         (local.set $u (i64.and $u (i64.sub $u 1))) (br $each)))
 *       (local.set $i (i32.add $i 64)) (br $block)))
 *     (if (i32.wrap_i64 $p) (then (local.set $i (i32.sub $i 1))))  ;; an escape begun in the last block: from its backslash
 *     (loop $next                                              ;; the rest: 16 bytes at a time, single bytes around a backslash
 *       (block $slow (loop $fast                               ;; while none is < 0x20 or a backslash
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
 * The escaped bytes are worked out as simdjson does (its `find_escaped`), in 64-bit masks.
 */

const I32 = 0x7f
const I64 = 0x7e
const V128 = 0x7b
const get = (n: number) => [0x20, n]
const set = (n: number) => [0x21, n]
const i32 = (n: number) => [0x41, ...sleb(BigInt(n))]
const i64 = (n: bigint) => [0x42, ...sleb(n)]
const SIMD = (op: number) => [0xfd, ...uleb(op)]
const [I, END, C, M, B, E, P, S, U, V] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
const ADD = 0x6a
const SUB = 0x6b
const AND = 0x71
const OR = 0x72
const CTZ = 0x68
const EQZ = 0x45
const EQ = 0x46
const NE = 0x47
const LT_U = 0x49
const GT_U = 0x4b
const GE_U = 0x4f
const [ADD64, SUB64, AND64, OR64, XOR64, SHL64, CTZ64, EQZ64, NE64, LT_U64] = [0x7c, 0x7d, 0x83, 0x84, 0x85, 0x86, 0x7a, 0x50, 0x52, 0x54]
const EXTEND = 0xad // i64.extend_i32_u
const WRAP = 0xa7 // i32.wrap_i64
const IF = [0x04, 0x40]
const BLOCK = [0x02, 0x40]
const LOOP = [0x03, 0x40]
const END_ = 0x0b
const RETURN = 0x0f
const br = (depth: number) => [0x0c, depth]
const brIf = (depth: number) => [0x0d, depth]
/** load8_u of $base + offset */
const byteAt = (offset: number, base = I) => [...get(base), 0x2d, 0x00, offset]
/** (hex c) for the byte at $base + offset, leaves an i32 */
const hexAt = (offset: number, base = I) => [
  ...byteAt(offset, base), ...i32(0x30), SUB, ...i32(10), LT_U,
  ...byteAt(offset, base), ...i32(0x20), OR, ...i32(0x61), SUB, ...i32(6), LT_U, OR,
]
/** the four bytes from $base + offset are all hex digits, leaves an i32 */
const hex4At = (offset: number, base = I) => [...hexAt(offset, base), ...hexAt(offset + 1, base), AND, ...hexAt(offset + 2, base), AND, ...hexAt(offset + 3, base), AND]
const isC = (ch: string) => [...get(C), ...i32(ch.charCodeAt(0)), EQ]
/** v128.load of $i + offset (align=16 noted; unaligned loads are fine) */
const load = (offset: number) => [...get(I), ...SIMD(0x00), 0x04, ...uleb(offset)]
const splat = (byte: number) => [...i32(byte), ...SIMD(0x0f)]
const [V_AND, V_OR, SWIZZLE, EQ8, LT_U8, ANY_TRUE, BITMASK] = [SIMD(0x4e), SIMD(0x50), SIMD(0x0e), SIMD(0x23), SIMD(0x26), SIMD(0x53), SIMD(0x64)]
/** the 64 bits of (bitmask (f v)) for the four vectors from $i, leaves an i64 */
const mask64 = (f: (v: number[]) => number[]) => [0, 16, 32, 48].flatMap((at) => [...f(load(at)), ...BITMASK, EXTEND, ...(at ? [...i64(BigInt(at)), SHL64, OR64] : [])])
const NOT64 = [...i64(-1n), XOR64]
const EVEN = i64(0x5555555555555555n)
/**
 * By a byte's low nibble, the one escape letter with it (`" / \ f n t u`; `b` and `r` share `"`'s and are compared
 * apart), 0xff where there is none: a byte is one of the letters when it equals its nibble's entry, b or r.
 */
const LETTERS = Array.from({ length: 16 }, (_, lo) => [...'"/\\fntu'].map((ch) => ch.charCodeAt(0)).find((c) => (c & 15) === lo) ?? 0xff)
const isLetter = (v: number[]) => [
  ...v, ...SIMD(0x0c), ...LETTERS, ...v, ...splat(15), ...V_AND, ...SWIZZLE, ...EQ8, // v128.const LETTERS
  ...v, ...splat(0x62), ...EQ8, ...V_OR, ...v, ...splat(0x72), ...EQ8, ...V_OR,
]

// br depths: in $block 0, $wide 1 (one more inside an if; in $each: $each 0, $done 1, $block 2)
const wide = [
  ...BLOCK, ...LOOP,
  ...get(I), ...i32(64), ADD, ...get(END), GT_U, ...brIf(1),
  ...[0, 16, 32, 48].flatMap((at, k) => [...load(at), ...splat(0x20), ...LT_U8, ...(k ? V_OR : [])]), ...ANY_TRUE, ...IF, ...get(I), RETURN, END_,
  ...mask64((v) => [...v, ...splat(0x5c), ...EQ8]), ...get(P), ...NOT64, AND64, ...set(B),
  ...get(B), ...i64(1n), SHL64, ...get(P), OR64, ...set(E),
  ...get(B), ...get(E), ...EVEN, OR64, ...NOT64, AND64, ...get(B), ADD64, ...set(S),
  ...get(S), ...get(B), LT_U64, EXTEND, ...set(P),
  ...get(S), ...i64(1n), SHL64, ...EVEN, XOR64, ...get(E), AND64, ...set(E),
  ...get(E), ...mask64(isLetter), ...NOT64, AND64, ...i64(0n), NE64, ...IF, ...get(I), RETURN, END_,
  ...get(E), ...mask64((v) => [...v, ...splat(0x75), ...EQ8]), AND64, ...set(U),
  ...BLOCK, ...LOOP,
  ...get(U), EQZ64, ...brIf(1),
  ...get(I), ...get(U), CTZ64, WRAP, ADD, ...set(C),
  ...get(C), ...i32(5), ADD, ...get(END), GT_U, ...IF, ...get(C), RETURN, END_,
  ...hex4At(1, C), EQZ, ...IF, ...get(C), RETURN, END_,
  ...get(U), ...get(U), ...i64(1n), SUB64, AND64, ...set(U),
  ...br(0),
  END_, END_, // loop $each, block $done
  ...get(I), ...i32(64), ADD, ...set(I), ...br(0),
  END_, END_, // loop $block, block $wide
  ...get(P), WRAP, ...IF, ...get(I), ...i32(1), SUB, ...set(I), END_,
]

const body = [
  ...wide,
  ...LOOP, // $next (depth 0 inside)
  ...BLOCK, // $slow
  ...LOOP, // $fast
  ...get(I), ...i32(16), ADD, ...get(END), GT_U, ...brIf(1),
  ...load(0), ...set(V),
  ...get(V), ...splat(0x20), ...LT_U8, ...get(V), ...splat(0x5c), ...EQ8, ...V_OR, ...BITMASK, ...set(M),
  ...get(M), ...IF, ...get(I), ...get(M), CTZ, ADD, ...set(I), ...br(2), END_, // br $slow (from inside the if)
  ...get(I), ...i32(16), ADD, ...set(I), ...br(0), // br $fast
  END_, END_,
  ...get(I), ...get(END), GE_U, ...IF, ...i32(-1), RETURN, END_,
  ...byteAt(0), ...set(C),
  ...get(C), ...i32(0x20), LT_U, ...IF, ...get(I), RETURN, END_,
  ...get(C), ...i32(0x5c), NE, ...IF, ...get(I), ...i32(1), ADD, ...set(I), ...br(1), END_, // br $next (from inside the if)
  ...get(I), ...i32(1), ADD, ...get(END), GE_U, ...IF, ...get(I), RETURN, END_,
  ...byteAt(1), ...set(C),
  ...get(C), ...i32(0x75), EQ, ...IF,
  ...get(I), ...i32(6), ADD, ...get(END), GT_U, ...IF, ...get(I), RETURN, END_,
  ...hex4At(2), EQZ, ...IF, ...get(I), RETURN, END_,
  ...get(I), ...i32(6), ADD, ...set(I), ...br(1), END_,
  ...isC('"'), ...isC('\\'), OR, ...isC('/'), OR, ...isC('b'), OR, ...isC('f'), OR, ...isC('n'), OR, ...isC('r'), OR, ...isC('t'), OR,
  EQZ, ...IF, ...get(I), RETURN, END_,
  ...get(I), ...i32(2), ADD, ...set(I), ...br(0), // br $next
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

function sleb(n: bigint): number[] {
  const out: number[] = []
  for (;;) {
    const byte = Number(n & 0x7fn)
    n >>= 7n
    if ((n === 0n && !(byte & 0x40)) || (n === -1n && byte & 0x40)) return [...out, byte]
    out.push(byte | 0x80)
  }
}

const section = (id: number, content: number[]) => [id, ...uleb(content.length), ...content]
const name = (s: string) => [s.length, ...[...s].map((c) => c.charCodeAt(0))]
const code = [3, 2, I32, 5, I64, 1, V128, ...body] // locals: $c $m (i32), $b $e $p $s $u (i64), $v (v128)

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
