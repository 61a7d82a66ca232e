/** Files the console offers for download (CSV text from `src/csv.ts`). */

/** A file name from free text: letters, digits, `-` and `_` kept (any script), the rest collapsed to `-`. */
export function fileSlug(text: string, fallback = 'export'): string {
  const slug = text
    .normalize('NFKC')
    .replace(/[^\p{L}\p{N}_-]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
  return slug || fallback
}

/** Offer `csv` as a download named `fileName`, through a short-lived Blob URL (a BOM so Excel reads UTF-8). */
export function downloadCsv(fileName: string, csv: string): void {
  const url = URL.createObjectURL(new Blob(['\uFEFF', csv], { type: 'text/csv;charset=utf-8' }))
  const link = document.createElement('a')
  link.href = url
  link.download = fileName
  link.className = 'offscreen'
  document.body.append(link)
  link.click()
  link.remove()
  setTimeout(() => URL.revokeObjectURL(url), 1000)
}
