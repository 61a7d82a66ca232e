/** Numbers, money and times for people: through Intl in the chosen locale, times in the browser's zone. */

export function formatNumber(value: number, locale: string): string {
  return new Intl.NumberFormat(locale).format(value)
}

/** Quota units as dollars: `QuotaPerUnit` units make US$1. */
export function quotaToDollars(quota: number, quotaPerUnit: number): number {
  return quotaPerUnit > 0 ? quota / quotaPerUnit : 0
}

export function formatDollars(dollars: number, locale: string): string {
  const abs = Math.abs(dollars)
  // small amounts keep enough digits to be told apart (a single request often costs well under a cent)
  const digits = abs === 0 || abs >= 1 ? 2 : abs >= 0.01 ? 4 : 6
  return new Intl.NumberFormat(locale, { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: digits }).format(dollars)
}

/**
 * An amount of quota the one way the instance shows money (DisplayInCurrencyEnabled): "$1.00" in US$, or
 * "500,000" in quota units. Every page and message uses this, so no page mixes the two.
 */
export function formatAmount(quota: number, quotaPerUnit: number, locale: string, inCurrency: boolean): string {
  return inCurrency ? formatDollars(quotaToDollars(quota, quotaPerUnit), locale) : formatNumber(quota, locale)
}

/** Dollars typed by a person → quota units (rounded to whole units). */
export function dollarsToQuota(dollars: number, quotaPerUnit: number): number {
  return Math.round(dollars * quotaPerUnit)
}

/** A unix time in seconds, in the browser's zone. */
export function formatTime(seconds: number, locale: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'medium' }).format(new Date(seconds * 1000))
}

export function formatDate(seconds: number, locale: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium' }).format(new Date(seconds * 1000))
}

/** The zone name shown on hover next to times. */
export function timeZoneName(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone
}

/** `<input type="datetime-local">` value ↔ unix seconds, in the browser's zone. */
export function toLocalInput(seconds: number): string {
  const date = new Date(seconds * 1000)
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`
}

export function fromLocalInput(value: string): number | undefined {
  if (!value) return undefined
  const ms = new Date(value).getTime()
  return Number.isFinite(ms) ? Math.floor(ms / 1000) : undefined
}
