/** CSV for spreadsheets (RFC 4180, CRLF lines), safe to open in Excel, LibreOffice or Google Sheets. */

export type CsvValue = string | number | boolean | null | undefined

/** A text cell starting like a formula (= + - @, or a tab / carriage return) is prefixed with ' so no spreadsheet runs it. */
const FORMULA_START = /^[=+\-@\t\r]/

/** One cell: formula-looking text defused, then quoted when it holds a comma, quote or line break. */
export function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return ''
  // numbers are numbers: a negative one is not a formula and keeps its minus sign
  let text = typeof value === 'string' ? (FORMULA_START.test(value) ? `'${value}` : value) : String(value)
  if (/[",\r\n]/.test(text)) text = `"${text.replace(/"/g, '""')}"`
  return text
}

/** Rows (the first usually the header) as CSV text, each line ended by CRLF. */
export function toCsv(rows: readonly (readonly CsvValue[])[]): string {
  return rows.map((row) => row.map(csvField).join(',') + '\r\n').join('')
}

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
