/** CSV for spreadsheets (RFC 4180, CRLF lines), safe to open in Excel, LibreOffice or Google Sheets: the console's
 * downloads and the server's log export write it the same way. */

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
