import { CopyButton } from '../../components/copy-button'
import { TierLines } from '../../components/tier-lines'
import { VendorIcon } from '../../components/vendor-icon'
import { useI18n, type MessageKey } from '../../i18n'
import { formatDollars } from '../../lib/format'
import type { SquareModel, SquarePrice } from '../../lib/model-square'

interface Props {
  model: SquareModel
  /** the price in the chosen group; undefined: none there */
  price: SquarePrice | undefined
  /** self-use mode: a model without a price is served free */
  free: boolean
}

/** One model: its vendor's mark, its name with Copy, its kind, and what it costs (money, never ratios). */
export function ModelCard({ model, price, free }: Props) {
  const { t } = useI18n()
  const { item, vendor, kind } = model
  return (
    <li class="model-card">
      <div class="model-card-head">
        <VendorIcon vendor={vendor.id} />
        <div class="model-card-title">
          <span class="model-card-name">{item.model}</span>
          <span class="model-card-meta">
            {vendor.id === 'other' ? t('models.vendor.other') : vendor.name} · {t(`models.kind.${kind}` as MessageKey)}
          </span>
        </div>
        <CopyButton text={item.model} name={t('models.copy', { model: item.model })} />
      </div>
      <PriceLines price={price} free={free} />
    </li>
  )
}

function PriceLines({ price, free }: { price: SquarePrice | undefined; free: boolean }) {
  const { t, locale } = useI18n()
  const usd = (value: number) => formatDollars(value, locale)
  if (!price || price.mode === 'none' || price.mode === 'free') return <p class="model-price model-price-none">{free ? t('pricing.free') : t('pricing.noPrice')}</p>
  if (price.mode !== 'ratio') {
    return (
      <dl class="model-price">
        <dt>{t('models.perCall')}</dt>
        <dd>{usd(price.per_call ?? 0)}</dd>
      </dl>
    )
  }
  if (price.tiers?.length) return <TierLines tiers={price.tiers} />
  return (
    <dl class="model-price">
      <dt>{t('models.input')}</dt>
      <dd>{usd(price.input ?? 0)}</dd>
      <dt>{t('models.output')}</dt>
      <dd>{usd(price.output ?? 0)}</dd>
      {Boolean(price.cache_read) && (
        <>
          <dt>{t('models.cacheRead')}</dt>
          <dd>{usd(price.cache_read ?? 0)}</dd>
        </>
      )}
    </dl>
  )
}
