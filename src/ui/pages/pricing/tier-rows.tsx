import { Button } from '../../components/button'
import { TextField } from '../../components/field'
import { useI18n } from '../../i18n'
import { parseAmount } from '../../lib/validate'
import { tiersFromShown, type TierError, type TierInput, type TierShown } from '../../lib/tier-prices'

/** One tier as typed: text until saved. */
export interface TierRow {
  from: string
  input: string
  output: string
  cacheRead: string
}
type RowField = keyof TierRow
export type RowErrors = Record<string, string>

const text = (value: number | undefined) => (value === undefined ? '' : String(value))

/** The rows the editor starts from: the model's tiers, else its flat price up to 200K tokens and an empty tier after. */
export function initialRows(tiers: readonly TierShown[] | undefined, flat: { input?: number; output?: number; cache_read?: number }): TierRow[] {
  if (tiers?.length) return tiersFromShown(tiers).map((tier) => ({ from: String(tier.from), input: String(tier.input), output: String(tier.output), cacheRead: text(tier.cacheRead) }))
  return [
    { from: '0', input: text(flat.input), output: text(flat.output), cacheRead: text(flat.cache_read) },
    { from: '200000', input: '', output: '', cacheRead: '' },
  ]
}

/** The typed rows as tiers, or the problems per row and field (`<row>.<field>`). */
export function readRows(rows: readonly TierRow[], problem: (field: RowField) => string): { tiers: TierInput[] } | { errors: RowErrors } {
  const errors: RowErrors = {}
  const tiers = rows.map((row, index) => {
    const read = (field: RowField, optional = false) => {
      if (optional && !row[field].trim()) return undefined
      const value = field === 'from' ? (/^\s*\d+\s*$/.test(row.from) ? Number(row.from) : undefined) : parseAmount(row[field])
      if (value === undefined) errors[`${index}.${field}`] = problem(field)
      return value
    }
    return { from: read('from') ?? 0, input: read('input') ?? 0, output: read('output') ?? 0, cacheRead: read('cacheRead', true) }
  })
  return Object.keys(errors).length ? { errors } : { tiers }
}

/** Where a tier error belongs: the field it names. */
export function rowErrorOf(error: TierError, message: string): RowErrors {
  if (error.code === 'first') return { '0.from': message }
  return { [`${error.index}.${error.code === 'order' ? 'from' : 'output'}`]: message }
}

/** The tiers of one model: a fieldset per tier (from, input, output, cache read), tiers added and removed. */
export function TierRows({ rows, errors, onRows }: { rows: TierRow[]; errors: RowErrors; onRows(update: (rows: TierRow[]) => TierRow[]): void }) {
  const { t } = useI18n()
  const set = (index: number, field: RowField) => (value: string) => onRows((current) => current.map((row, i) => (i === index ? { ...row, [field]: value } : row)))
  return (
    <div class="price-tiers-edit">
      <p class="muted">{t('tiers.hint')}</p>
      {rows.map((row, index) => (
        <fieldset key={index} class="price-tier">
          <legend>{t('tiers.legend', { n: index + 1 })}</legend>
          <div class="form-row">
            <TextField label={t('tiers.from')} inputMode="numeric" value={row.from} onValue={set(index, 'from')} readOnly={index === 0} error={errors[`${index}.from`]} />
            <TextField label={t('pricing.set.input')} inputMode="decimal" value={row.input} onValue={set(index, 'input')} error={errors[`${index}.input`]} />
          </div>
          <div class="form-row">
            <TextField label={t('pricing.set.output')} inputMode="decimal" value={row.output} onValue={set(index, 'output')} error={errors[`${index}.output`]} />
            <TextField label={t('pricing.set.cacheRead')} inputMode="decimal" value={row.cacheRead} onValue={set(index, 'cacheRead')} hint={t('tiers.cacheHint')} error={errors[`${index}.cacheRead`]} />
          </div>
          {index > 0 && (
            <Button class="btn-small" aria-label={t('tiers.removeFor', { n: index + 1 })} onClick={() => onRows((current) => current.filter((_, i) => i !== index))}>
              {t('tiers.remove')}
            </Button>
          )}
        </fieldset>
      ))}
      {rows.length < 16 && <Button onClick={() => onRows((current) => [...current, { from: '', input: '', output: '', cacheRead: '' }])}>{t('tiers.add')}</Button>}
    </div>
  )
}
