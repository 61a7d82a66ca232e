/**
 * Runs `run` with every `Blob.prototype.bytes()` call recorded: the sizes of the Blobs read back (a body let go of while
 * the upstream answered is read back from one for a retry or an exact count).
 */
export async function blobReads<T>(run: () => Promise<T>): Promise<{ result: T; sizes: number[] }> {
  const sizes: number[] = []
  const bytesOfBlob = Blob.prototype.bytes
  Blob.prototype.bytes = function (this: Blob) {
    sizes.push(this.size)
    return bytesOfBlob.call(this)
  }
  try {
    return { result: await run(), sizes }
  } finally {
    Blob.prototype.bytes = bytesOfBlob
  }
}
