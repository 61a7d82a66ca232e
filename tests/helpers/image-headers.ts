/** Images that are only their headers (and padding): what metering reads of an inline image, at any size. */

/** A PNG signature and IHDR chunk for width × height, then `padding` bytes (a large image's weight). */
export function pngOf(width: number, height: number, padding = 0): Buffer {
  const head = Buffer.alloc(33 + padding, 0x41)
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(head, 0)
  head.writeUInt32BE(13, 8)
  head.write('IHDR', 12, 'latin1')
  head.writeUInt32BE(width, 16)
  head.writeUInt32BE(height, 20)
  head.set([8, 6, 0, 0, 0], 24)
  return head
}

/** A JPEG whose frame header comes after an APP1 (EXIF) segment of `exif` bytes. */
export function jpegOf(width: number, height: number, exif = 0): Buffer {
  const app1 = Buffer.alloc(4 + exif, 0x45)
  app1.set([0xff, 0xe1], 0)
  app1.writeUInt16BE(2 + exif, 2)
  const sof = Buffer.from([0xff, 0xc2, 0, 17, 8, 0, 0, 0, 0, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1])
  sof.writeUInt16BE(height, 5)
  sof.writeUInt16BE(width, 7)
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app1, sof, Buffer.alloc(64, 0x11)])
}

export function gifOf(width: number, height: number): Buffer {
  const b = Buffer.alloc(32)
  b.write('GIF89a', 0, 'latin1')
  b.writeUInt16LE(width, 6)
  b.writeUInt16LE(height, 8)
  return b
}

/** A lossless WebP (VP8L) header. */
export function webpOf(width: number, height: number): Buffer {
  const b = Buffer.alloc(40)
  b.write('RIFF', 0, 'latin1')
  b.writeUInt32LE(32, 4)
  b.write('WEBPVP8L', 8, 'latin1')
  b.writeUInt32LE(20, 16)
  b[20] = 0x2f
  b.writeUInt32LE(((width - 1) & 0x3fff) | (((height - 1) & 0x3fff) << 14), 21)
  return b
}

export const dataUrl = (bytes: Buffer, type = 'image/png') => `data:${type};base64,${bytes.toString('base64')}`
