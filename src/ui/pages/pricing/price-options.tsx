import { useEffect, useState } from 'preact/hooks'
import { api } from '../../api/client'
import { ErrorAlert } from '../../components/alert'
import { Button } from '../../components/button'
import { Drawer } from '../../components/drawer'
import { TextAreaField } from '../../components/field'
import { useToast } from '../../components/toast'
import { useI18n } from '../../i18n'
import { formatDollars } from '../../lib/format'
import { formatPriceTable, parsePriceTable, PRICE_OPTION_KEYS, ratioToDollars, type PriceOptionKey, type PriceTable, type PriceTableError } from '../../lib/prices'

type Texts = Record<PriceOptionKey, string>

/** The six price options as JSON, each checked (an object of non-negative numbers) before anything is sent. */
export function PriceOptionsDrawer({ quotaPerUnit, onSaved, onClose }: { quotaPerUnit: number; onSaved(): void; onClose(): void }) {
  const { t, locale } = useI18n()
  const toast = useToast()
  const [stored, setStored] = useState<Texts>()
  const [texts, setTexts] = useState<Texts>()
  const [errors, setErrors] = useState<Partial<Record<PriceOptionKey, string>>>({})
  const [failure, setFailure] = useState<unknown>()
  const [busy, setBusy] = useState(false)
  const dollars = formatDollars(ratioToDollars(1, quotaPerUnit), locale)

  useEffect(() => {
    api.get<{ key: string; value: unknown }[]>('/api/option/').then(
      (options) => {
        const loaded = Object.fromEntries(PRICE_OPTION_KEYS.map((key) => [key, formatPriceTable((options.find((o) => o.key === key)?.value ?? {}) as PriceTable)])) as Texts
        setStored(loaded)
        setTexts(loaded)
      },
      (error: unknown) => setFailure(error),
    )
  }, [])

  const problem = (error: PriceTableError) =>
    error.code === 'number' ? t('pricing.error.number', { name: error.name }) : t(error.code === 'json' ? 'pricing.error.json' : error.code === 'object' ? 'pricing.error.object' : 'pricing.error.name')

  const submit = async (event: Event) => {
    event.preventDefault()
    if (!texts || !stored) return
    const found: Partial<Record<PriceOptionKey, string>> = {}
    const tables: Partial<Record<PriceOptionKey, PriceTable>> = {}
    for (const key of PRICE_OPTION_KEYS) {
      const parsed = parsePriceTable(texts[key])
      if ('error' in parsed) found[key] = problem(parsed.error)
      else tables[key] = parsed.table
    }
    setErrors(found)
    setFailure(undefined)
    if (Object.keys(found).length) return
    const changed = PRICE_OPTION_KEYS.filter((key) => formatPriceTable(tables[key]!) !== stored[key])
    if (changed.length === 0) return toast(t('pricing.options.unchanged'))
    setBusy(true)
    try {
      for (const key of changed) {
        await api.put('/api/option/', { key, value: tables[key] })
        setStored((current) => current && { ...current, [key]: formatPriceTable(tables[key]!) })
      }
      toast(t('pricing.options.saved'))
      onSaved()
    } catch (error) {
      setFailure(error)
    } finally {
      setBusy(false)
    }
  }

  return (
    <Drawer
      title={t('pricing.options.title')}
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button type="submit" form="price-options-form" variant="primary" busy={busy} disabled={!texts}>
            {t('common.save')}
          </Button>
        </>
      }
    >
      <p class="muted">{t('pricing.options.lead', { dollars })}</p>
      {!texts && !failure && <p class="muted">{t('common.loading')}</p>}
      {texts && (
        <form id="price-options-form" class="form" onSubmit={submit} noValidate>
          {PRICE_OPTION_KEYS.map((key) => (
            <TextAreaField
              key={key}
              label={t(`pricing.options.${key}`)}
              class="mono"
              rows={Math.min(12, Math.max(3, texts[key].split('\n').length))}
              spellcheck={false}
              value={texts[key]}
              onValue={(value) => setTexts((current) => current && { ...current, [key]: value })}
              hint={t(`pricing.options.hint.${key}`, { dollars })}
              error={errors[key]}
            />
          ))}
        </form>
      )}
      <ErrorAlert error={failure} />
    </Drawer>
  )
}
