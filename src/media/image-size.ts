/**
 * An image's width and height from its header alone (PNG, JPEG, GIF, WebP), for metering: vendors bill an image
 * by its size, and the reservation must know it before dispatch. Only the bytes the header needs are decoded
 * from the base64 (a JPEG's segment markers are walked by their lengths, never its pixel data); anything else,
 * or a header that does not parse, is undefined and metering reserves the model's worst case.
 */
export interface ImageSize {
  width: number
  height: number
}

/** base64 text as a reader can see it: its length and a slice (a whole string, or one cut by the splicer) */
export interface Base64Text {
  length: number
  slice(from: number, to: number): string
}

type Read = (offset: number, length: number) => Uint8Array | undefined

/** JPEG segments walked before giving up (EXIF, ICC and XMP come before the frame header; a few dozen at most) */
const MAX_JPEG_SEGMENTS = 64
const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/

/** The size the image's header states, from base64 text; undefined when it is not one of the four formats or does not parse. */
export function base64ImageSize(text: Base64Text): ImageSize | undefined {
  return imageSize(base64Reader(text))
}

/** The size from raw bytes (tests, and callers holding the decoded image). */
export function bytesImageSize(bytes: Uint8Array): ImageSize | undefined {
  return imageSize((offset, length) => (offset + length <= bytes.length ? bytes.subarray(offset, offset + length) : undefined))
}

function imageSize(read: Read): ImageSize | undefined {
  const head = read(0, 30)
  if (!head) return undefined
  if (isPng(head)) return positive(u32be(head, 16), u32be(head, 20))
  if (head[0] === 0x47 && head[1] === 0x49 && head[2] === 0x46 && head[3] === 0x38) return positive(u16le(head, 6), u16le(head, 8))
  if (ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 4) === 'WEBP') return webpSize(head)
  if (head[0] === 0xff && head[1] === 0xd8) return jpegSize(read)
  return undefined
}

function isPng(b: Uint8Array): boolean {
  return b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47 && ascii(b, 12, 4) === 'IHDR'
}

function webpSize(b: Uint8Array): ImageSize | undefined {
  const chunk = ascii(b, 12, 4)
  if (chunk === 'VP8X') return positive(1 + u24le(b, 24), 1 + u24le(b, 27))
  if (chunk === 'VP8L' && b[20] === 0x2f) {
    const bits = b[21]! | (b[22]! << 8) | (b[23]! << 16) | (b[24]! << 24)
    return positive(1 + (bits & 0x3fff), 1 + ((bits >>> 14) & 0x3fff))
  }
  if (chunk === 'VP8 ' && b[23] === 0x9d && b[24] === 0x01 && b[25] === 0x2a) return positive(u16le(b, 26) & 0x3fff, u16le(b, 28) & 0x3fff)
  return undefined
}

/** The first start-of-frame marker's size, walking the segments before it by their stated lengths. */
function jpegSize(read: Read): ImageSize | undefined {
  let at = 2
  for (let i = 0; i < MAX_JPEG_SEGMENTS; i++) {
    const marker = read(at, 4)
    if (!marker || marker[0] !== 0xff) return undefined
    const type = marker[1]!
    if (type === 0xff) {
      at++ // fill byte
      continue
    }
    const length = u16be(marker, 2)
    if (isStartOfFrame(type)) {
      const frame = read(at + 5, 4)
      return frame ? positive(u16be(frame, 2), u16be(frame, 0)) : undefined
    }
    if (length < 2) return undefined
    at += 2 + length
  }
  return undefined
}

/** SOF0–SOF15, less DHT (C4), JPG (C8) and DAC (CC) */
function isStartOfFrame(type: number): boolean {
  return type >= 0xc0 && type <= 0xcf && type !== 0xc4 && type !== 0xc8 && type !== 0xcc
}

/** Reads bytes at any offset by decoding only the base64 quads that hold them. */
function base64Reader(text: Base64Text): Read {
  return (offset, length) => {
    const from = Math.floor(offset / 3) * 4
    const to = Math.ceil((offset + length) / 3) * 4
    if (to > text.length + 3) return undefined
    const quads = text.slice(from, to)
    if (!BASE64.test(quads)) return undefined // an escape or another alphabet: no size, the worst case
    const bytes = Buffer.from(quads, 'base64')
    const skip = offset - (from / 4) * 3
    return skip + length <= bytes.length ? bytes.subarray(skip, skip + length) : undefined
  }
}

function positive(width: number, height: number): ImageSize | undefined {
  return width > 0 && height > 0 ? { width, height } : undefined
}

const ascii = (b: Uint8Array, at: number, n: number) => String.fromCharCode(...b.subarray(at, at + n))
const u16be = (b: Uint8Array, at: number) => (b[at]! << 8) | b[at + 1]!
const u16le = (b: Uint8Array, at: number) => b[at]! | (b[at + 1]! << 8)
const u24le = (b: Uint8Array, at: number) => b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16)
const u32be = (b: Uint8Array, at: number) => ((b[at]! << 24) >>> 0) + ((b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!)
