import { describe, expect, test } from 'bun:test'
import { base64ImageSize, bytesImageSize } from '../../src/media/image-size'
import { gifOf, jpegOf, pngOf, webpOf } from '../helpers/image-headers'

const b64 = (b: Buffer) => b.toString('base64')

describe('an image size from its header alone', () => {
  test('PNG, GIF, lossless WebP, from raw bytes and from base64', () => {
    for (const image of [pngOf(2048, 4096), gifOf(2048, 4096), webpOf(2048, 4096), jpegOf(2048, 4096)]) {
      expect(bytesImageSize(image)).toEqual({ width: 2048, height: 4096 })
      expect(base64ImageSize(b64(image))).toEqual({ width: 2048, height: 4096 })
    }
  })

  test('a JPEG frame header after a 60 KB EXIF segment: reached by the segment lengths, decoding only the markers', () => {
    const jpeg = b64(jpegOf(4032, 3024, 60_000))
    let decoded = 0
    const text = { length: jpeg.length, slice: (from: number, to: number) => ((decoded += to - from), jpeg.slice(from, to)) }
    expect(base64ImageSize(text)).toEqual({ width: 4032, height: 3024 })
    expect(decoded).toBeLessThan(100)
  })

  test('what is no image, is cut short, or holds an escape has no size (metering reserves the worst case)', () => {
    expect(base64ImageSize(b64(Buffer.from('%PDF-1.7 not an image at all, none')))).toBeUndefined()
    expect(base64ImageSize(b64(pngOf(100, 100)).slice(0, 20))).toBeUndefined()
    expect(base64ImageSize(b64(jpegOf(100, 100, 5000)).slice(0, 200))).toBeUndefined()
    const png = b64(pngOf(100, 100))
    expect(base64ImageSize(`${png.slice(0, 8)}\\/${png.slice(8)}`)).toBeUndefined() // a JSON escape inside the header
    expect(base64ImageSize(b64(pngOf(0, 100)))).toBeUndefined()
    expect(base64ImageSize('')).toBeUndefined()
  })

  test('a JPEG of endless empty segments is given up on after a bounded walk', () => {
    const segments = Buffer.concat(Array.from({ length: 1000 }, () => Buffer.from([0xff, 0xfe, 0, 2])))
    expect(bytesImageSize(Buffer.concat([Buffer.from([0xff, 0xd8]), segments, jpegOf(10, 10).subarray(2)]))).toBeUndefined()
  })
})
