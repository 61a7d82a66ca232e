import { useI18n } from '../i18n'
import { formatNumber } from '../lib/format'
import { Button } from './button'

const PAGE_SIZES = [10, 20, 50, 100] as const

/** Server-side paging with the total count. */
export function Pager({ page, pageSize, total, onPage, onPageSize }: { page: number; pageSize: number; total: number; onPage(page: number): void; onPageSize(size: number): void }) {
  const { t, locale } = useI18n()
  const pages = Math.max(1, Math.ceil(total / pageSize))
  return (
    <nav class="pager" aria-label={t('common.pagination')}>
      <span class="muted">{t('common.total', { count: formatNumber(total, locale) })}</span>
      <label class="pager-size">
        {t('common.pageSize')}
        <select value={String(pageSize)} onChange={(event) => onPageSize(Number(event.currentTarget.value))}>
          {PAGE_SIZES.map((size) => (
            <option key={size} value={String(size)}>
              {size}
            </option>
          ))}
        </select>
      </label>
      <Button variant="ghost" aria-label={t('common.previous')} disabled={page <= 1} onClick={() => onPage(page - 1)}>
        ‹
      </Button>
      <span>{t('common.page', { page, pages })}</span>
      <Button variant="ghost" aria-label={t('common.next')} disabled={page >= pages} onClick={() => onPage(page + 1)}>
        ›
      </Button>
    </nav>
  )
}
