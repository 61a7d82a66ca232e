import { useI18n } from '../i18n'
import { formatDollars, formatNumber } from '../lib/format'
import type { TierShown } from '../lib/tier-prices'

/** A tiered price's tiers, one line each: the prompt lengths it covers, then US$ per 1M input and output tokens. */
export function TierLines({ tiers }: { tiers: readonly TierShown[] }) {
  const { t, locale } = useI18n()
  const count = (n: number) => formatNumber(n, locale)
  return (
    <dl class="price-tier-lines" aria-label={t('tiers.caption')}>
      {tiers.map((tier) => (
        <div key={tier.min_tokens}>
          <dt>{tier.max_tokens === undefined ? t('tiers.range.from', { min: count(tier.min_tokens) }) : t('tiers.range.between', { min: count(tier.min_tokens), max: count(tier.max_tokens) })}</dt>
          <dd>{t('tiers.line', { input: formatDollars(tier.input, locale), output: formatDollars(tier.output, locale) })}</dd>
        </div>
      ))}
    </dl>
  )
}
