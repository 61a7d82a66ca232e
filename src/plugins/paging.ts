import { t } from 'elysia'

/** new-api paging: `p` (1-based; 0 is taken as 1) and `page_size` (default 10, at most 100). */
export const PageQuery = t.Object(
  {
    p: t.Optional(t.Integer({ minimum: 0, default: 1 })),
    page_size: t.Optional(t.Integer({ minimum: 1, maximum: 100, default: 10 })),
    keyword: t.Optional(t.String({ maxLength: 200 })),
  },
  { additionalProperties: true },
)

export interface PageWindow {
  page: number
  pageSize: number
  offset: number
}

export function pageWindow(query: { p?: number; page_size?: number }): PageWindow {
  const page = Math.max(1, query.p ?? 1)
  const pageSize = query.page_size ?? 10
  return { page, pageSize, offset: (page - 1) * pageSize }
}

export function pageOf<T>(items: T[], total: number, window: PageWindow) {
  return { items, total, page: window.page, page_size: window.pageSize }
}
