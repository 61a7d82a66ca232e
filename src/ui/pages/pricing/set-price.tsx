import { useState } from 'preact/hooks'
import { api } from '../../api/client'
import { ErrorAlert } from '../../components/alert'
import { Button } from '../../components/button'
import { Drawer } from '../../components/drawer'
import { SelectField, TextField } from '../../components/field'
import { useToast } from '../../components/toast'
import { useI18n, type MessageKey } from '../../i18n'
import { applyModelPrice, dollarsToRatio, multipleOf, type ModelPriceInput, type PriceTable } from '../../lib/prices'
import { applyModelTiers, tiersToConfig, type TierConfig, type TierTable } from '../../lib/tier-prices'
import { parseAmount } from '../../lib/validate'
import { initialRows, readRows, rowErrorOf, TierRows, type RowErrors, type TierRow } from './tier-rows'
import type { PriceItem } from './types'

type Mode = 'token' | 'call' | 'tiered'
type Field = 'input' | 'output' | 'cacheRead' | 'cacheWrite' | 'perCall'
const LABELS: Record<Field, MessageKey> = {
  input: 'pricing.set.input',
  output: 'pricing.set.output',
  cacheRead: 'pricing.set.cacheRead',
  cacheWrite: 'pricing.set.cacheWrite',
  perCall: 'pricing.set.perCall',
}
const TABLE_KEYS = ['ModelRatio', 'CompletionRatio', 'CacheRatio', 'CreateCacheRatio', 'ModelPrice'] as const

const text = (value: number | undefined) => (value === undefined ? '' : String(value))

/**
 * "Set price" for one model in dollars: per token (US$ per 1M input/output/cache tokens, stored as the
 * model ratio and multiples of it), per call, or per token by prompt length (tiers, stored in ModelTierPricing,
 * which wins over the others: a flat price saved removes the model's tiers). Reads the option tables afresh,
 * writes only those that change.
 */
export function SetPriceDrawer({ item, quotaPerUnit, onSaved, onClose }: { item: PriceItem; quotaPerUnit: number; onSaved(): void; onClose(): void }) {
  const { t } = useI18n()
  const toast = useToast()
  const [mode, setMode] = useState<Mode>(item.tiers?.length ? 'tiered' : item.mode === 'call' ? 'call' : 'token')
  const [rows, setRows] = useState<TierRow[]>(() => initialRows(item.tiers, item))
  const [rowErrors, setRowErrors] = useState<RowErrors>({})
  const [values, setValues] = useState<Record<Field, string>>({
    input: text(item.input),
    output: text(item.output),
    cacheRead: text(item.cache_read),
    cacheWrite: text(item.cache_write),
    perCall: text(item.model_price),
  })
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({})
  const [failure, setFailure] = useState<unknown>()
  const [busy, setBusy] = useState(false)
  const set = (field: Field) => (value: string) => setValues((current) => ({ ...current, [field]: value }))

  /** The typed tiers as ModelTierPricing stores them, or the problems per row and field. */
  const readTiers = (): { config: TierConfig } | { errors: RowErrors } => {
    const typed = readRows(rows, (field) => (field === 'from' ? t('tiers.error.from') : t('pricing.error.amount', { field: t(field === 'cacheRead' ? LABELS.cacheRead : LABELS[field]) })))
    if ('errors' in typed) return typed
    const result = tiersToConfig(typed.tiers)
    return 'error' in result ? { errors: rowErrorOf(result.error, t(`tiers.error.${result.error.code}`)) } : result
  }

  /** The typed price, or the problems per field. */
  const read = (): { price: ModelPriceInput } | { errors: Partial<Record<Field, string>> } => {
    const found: Partial<Record<Field, string>> = {}
    const amount = (field: Field, optional = false) => {
      if (optional && !values[field].trim()) return undefined
      const value = parseAmount(values[field])
      if (value === undefined) found[field] = t('pricing.error.amount', { field: t(LABELS[field]) })
      return value
    }
    if (mode === 'call') {
      const perCall = amount('perCall')
      return perCall === undefined ? { errors: found } : { price: { mode, perCall } }
    }
    const price = { mode: 'token' as const, input: amount('input') ?? 0, output: amount('output') ?? 0, cacheRead: amount('cacheRead', true), cacheWrite: amount('cacheWrite', true) }
    return Object.keys(found).length ? { errors: found } : { price }
  }

  const submit = async (event: Event) => {
    event.preventDefault()
    const typed = mode === 'tiered' ? undefined : read()
    const tiers = mode === 'tiered' ? readTiers() : undefined
    setErrors(typed && 'errors' in typed ? typed.errors : {})
    setRowErrors(tiers && 'errors' in tiers ? tiers.errors : {})
    setFailure(undefined)
    if ((typed && 'errors' in typed) || (tiers && 'errors' in tiers)) return
    setBusy(true)
    try {
      const options = await api.get<{ key: string; value: unknown }[]>('/api/option/')
      const table = (key: string) => (options.find((option) => option.key === key)?.value ?? {}) as PriceTable
      const storedTiers = table('ModelTierPricing') as unknown as TierTable
      const nextTiers = applyModelTiers(storedTiers, item.model, tiers && 'config' in tiers ? tiers.config : undefined)
      if (typed && 'price' in typed) {
        const current = Object.fromEntries(TABLE_KEYS.map((key) => [key, table(key)])) as Record<(typeof TABLE_KEYS)[number], PriceTable>
        const result = applyModelPrice(current, item.model, typed.price, quotaPerUnit)
        if ('error' in result) throw new Error(t('pricing.error.outputWithoutInput'))
        for (const key of result.changed) await api.put('/api/option/', { key, value: result.tables[key] })
      }
      if (JSON.stringify(nextTiers) !== JSON.stringify(storedTiers)) await api.put('/api/option/', { key: 'ModelTierPricing', value: nextTiers })
      toast(t('pricing.set.saved', { model: item.model }))
      onSaved()
    } catch (error) {
      setFailure(error)
    } finally {
      setBusy(false)
    }
  }

  const typed = mode === 'tiered' ? undefined : read()
  const preview = typed && 'price' in typed && typed.price.mode === 'token' ? typed.price : undefined
  const multiple = (value: number | undefined) => (preview && value !== undefined ? multipleOf(value, preview.input) ?? '—' : '—')
  return (
    <Drawer
      title={t('pricing.set.title', { model: item.model })}
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button type="submit" form="set-price-form" variant="primary" busy={busy}>
            {t('common.save')}
          </Button>
        </>
      }
    >
      <form id="set-price-form" class="form" onSubmit={submit} noValidate>
        <SelectField
          label={t('pricing.set.mode')}
          value={mode}
          onValue={(value) => setMode(value === 'call' || value === 'tiered' ? value : 'token')}
          options={[
            { value: 'token', label: t('pricing.set.mode.token') },
            { value: 'tiered', label: t('tiers.mode') },
            { value: 'call', label: t('pricing.set.mode.call') },
          ]}
        />
        {mode === 'tiered' ? (
          <TierRows rows={rows} errors={rowErrors} onRows={setRows} />
        ) : mode === 'token' ? (
          <>
            <div class="form-row">
              <TextField label={t(LABELS.input)} inputMode="decimal" value={values.input} onValue={set('input')} error={errors.input} />
              <TextField label={t(LABELS.output)} inputMode="decimal" value={values.output} onValue={set('output')} error={errors.output} />
            </div>
            <div class="form-row">
              <TextField label={t(LABELS.cacheRead)} inputMode="decimal" value={values.cacheRead} onValue={set('cacheRead')} hint={t('pricing.set.cacheHint')} error={errors.cacheRead} />
              <TextField label={t(LABELS.cacheWrite)} inputMode="decimal" value={values.cacheWrite} onValue={set('cacheWrite')} hint={t('pricing.set.cacheHint')} error={errors.cacheWrite} />
            </div>
            {preview && (
              <p class="price-preview muted" aria-live="polite">
                {t('pricing.set.preview', { ratio: dollarsToRatio(preview.input, quotaPerUnit), completion: multiple(preview.output) })}
                {(preview.cacheRead !== undefined || preview.cacheWrite !== undefined) &&
                  `; ${t('pricing.set.previewCache', { read: multiple(preview.cacheRead), write: multiple(preview.cacheWrite) })}`}
              </p>
            )}
          </>
        ) : (
          <TextField label={t(LABELS.perCall)} inputMode="decimal" value={values.perCall} onValue={set('perCall')} hint={t('pricing.set.perCallHint')} error={errors.perCall} />
        )}
        <ErrorAlert error={failure} />
      </form>
    </Drawer>
  )
}
