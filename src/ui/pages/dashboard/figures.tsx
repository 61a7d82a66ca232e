import type { ComponentChildren } from 'preact'
import type { User } from '../../api/types'
import { ErrorAlert } from '../../components/alert'
import { useQuotaFormat } from '../../components/quota'
import { useI18n } from '../../i18n'
import { formatNumber } from '../../lib/format'
import type { Totals } from '../../lib/usage-series'

/** One key figure: a small label over a large number; a skeleton while it loads. */
export function Figure({ label, value, hint }: { label: string; value: ComponentChildren | undefined; hint?: string }) {
  return (
    <div class="card figure-card">
      <div class="figure-label">{label}</div>
      <div class="figure">{value ?? <span class="skeleton figure-skeleton" aria-hidden="true" />}</div>
      {hint && <div class="figure-hint">{hint}</div>}
    </div>
  )
}

/** Balance, used quota and request count of the logged-in user (`GET /api/user/self`). */
export function AccountFigures({ user, error }: { user: User | undefined; error: unknown }) {
  const { t, locale } = useI18n()
  const quota = useQuotaFormat()
  return (
    <section class="section" aria-labelledby="dashboard-account">
      <h2 id="dashboard-account" class="section-title">
        {t('dashboard.account.title')}
      </h2>
      <ErrorAlert error={error} />
      <div class="figures">
        <Figure label={t('dashboard.account.balance')} value={user && quota(user.quota)} />
        <Figure label={t('dashboard.account.used')} value={user && quota(user.used_quota)} />
        <Figure label={t('dashboard.account.requests')} value={user && formatNumber(user.request_count, locale)} />
      </div>
    </section>
  )
}

/** Input tokens in the range and the part the upstreams read from their prompt caches (`/api/data/cache_reads`). */
export interface CacheReads {
  prompt_tokens: number
  cache_read_tokens: number
  cache_read_share: number
}

/** Requests, tokens and quota spent in the charts' range, and the share of input served from cache. */
export function RangeFigures({ totals, cache, hint }: { totals: Totals | undefined; cache: CacheReads | undefined; hint: string }) {
  const { t, locale } = useI18n()
  const quota = useQuotaFormat()
  const share = cache && new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 }).format(cache.cache_read_share)
  return (
    <div class="figures">
      <Figure label={t('dashboard.figure.requests')} value={totals && formatNumber(totals.count, locale)} hint={hint} />
      <Figure label={t('dashboard.figure.tokens')} value={totals && formatNumber(totals.tokens, locale)} hint={hint} />
      <Figure label={t('dashboard.figure.quota')} value={totals && quota(totals.quota)} hint={hint} />
      <Figure label={t('dashboard.figure.cacheShare')} value={share} hint={cache && `${formatNumber(cache.cache_read_tokens, locale)} / ${formatNumber(cache.prompt_tokens, locale)}`} />
    </div>
  )
}
