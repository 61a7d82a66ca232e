import { BadRequestError } from '../errors'

/**
 * Field checks for multipart bodies (image edits, transcriptions): every field arrives as text or a file, so
 * numbers are parsed here; each check names the field it refuses, as the OpenAI API does.
 */
export function formFile(form: FormData, field: string): File | undefined {
  const value = form.get(field)
  if (value === null) return undefined
  if (!(value instanceof File)) throw new BadRequestError(`${field} must be a file upload, not a text field`, field)
  return value
}

/** Every file under `field` and `field[]` (the SDKs send an array as `image[]`). */
export function formFiles(form: FormData, field: string): File[] {
  const files: File[] = []
  for (const name of [field, `${field}[]`]) {
    for (const value of form.getAll(name)) {
      if (!(value instanceof File)) throw new BadRequestError(`${name} must be a file upload, not a text field`, name)
      files.push(value)
    }
  }
  return files
}

/** A file past `maxBytes` is a 400 naming its field (the API's own bound, below the body limit's 413). */
export function checkFileSize(file: File | undefined, field: string, maxBytes: number): void {
  if (file && file.size > maxBytes) throw new BadRequestError(`${field} is ${(file.size / 1048576).toFixed(1)} MB; it must be smaller than ${maxBytes / 1048576} MB`, field)
}

export function formString<T extends string>(form: FormData, field: string, allowed?: readonly T[]): T | undefined {
  const value = form.get(field)
  if (value === null) return undefined
  if (typeof value !== 'string') throw new BadRequestError(`${field} must be a text field, not a file`, field)
  if (allowed && !allowed.includes(value as T)) throw new BadRequestError(`${field} must be one of ${allowed.map((a) => `"${a}"`).join(', ')}, got "${value.slice(0, 50)}"`, field)
  return value as T
}

export function requiredFormString(form: FormData, field: string): string {
  const value = formString(form, field)
  if (value === undefined || !value.trim()) throw new BadRequestError(`${field} is required and must be a non-empty string`, field)
  return value
}

export function formInteger(form: FormData, field: string, min: number, max: number): number | undefined {
  const text = formString(form, field)
  if (text === undefined) return undefined
  const value = /^-?\d+$/.test(text.trim()) ? Number(text) : NaN
  if (!Number.isInteger(value) || value < min || value > max) throw new BadRequestError(`${field} must be an integer from ${min} to ${max}`, field)
  return value
}

export function formNumber(form: FormData, field: string, min: number, max: number): number | undefined {
  const text = formString(form, field)
  if (text === undefined) return undefined
  const value = text.trim() === '' ? NaN : Number(text)
  if (!Number.isFinite(value) || value < min || value > max) throw new BadRequestError(`${field} must be a number from ${min} to ${max}`, field)
  return value
}

export function formBoolean(form: FormData, field: string): boolean | undefined {
  const text = formString(form, field)
  if (text === undefined) return undefined
  if (text === 'true') return true
  if (text === 'false') return false
  throw new BadRequestError(`${field} must be true or false`, field)
}

/** A copy of the client's form for the upstream: the same entries (files by reference, never copied), some replaced or dropped. */
export function forwardForm(form: FormData, replace: Record<string, string | undefined>): FormData {
  const out = new FormData()
  for (const [name, value] of form.entries()) {
    if (Object.hasOwn(replace, name)) continue
    out.append(name, value)
  }
  for (const [name, value] of Object.entries(replace)) if (value !== undefined) out.append(name, value)
  return out
}
