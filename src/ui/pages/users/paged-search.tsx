import { useEffect, useState } from 'preact/hooks'
import { api, type Page } from '../../api/client'
import { TextField } from '../../components/field'
import { useI18n } from '../../i18n'
import { useApi, type Loaded } from '../../state/use-api'

export interface PagedSearch<T> extends Loaded<Page<T>> {
  /** the search box's text */
  text: string
  setText(text: string): void
  /** the keyword the list was asked for (the text, trimmed, once typing pauses) */
  keyword: string
  applyNow(): void
  /** empty the box and list everything again, at once */
  clear(): void
  page: number
  setPage(page: number): void
  pageSize: number
  setPageSize(size: number): void
}

/** A server-paged list searched by keyword: `<base>` or `<base>search?keyword=`, with `p` and `page_size`. */
export function usePagedSearch<T>(base: string): PagedSearch<T> {
  const [text, setText] = useState('')
  const [keyword, setKeyword] = useState('')
  const [page, setPage] = useState(1)
  const [pageSize, setPageSize] = useState(20)
  const apply = (next: string) => {
    if (next === keyword) return
    setKeyword(next)
    setPage(1)
  }
  useEffect(() => {
    const timer = setTimeout(() => apply(text.trim()), 300)
    return () => clearTimeout(timer)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [text])
  const list = useApi(
    () => (keyword ? api.get<Page<T>>(`${base}search`, { keyword, p: page, page_size: pageSize }) : api.get<Page<T>>(base, { p: page, page_size: pageSize })),
    [base, keyword, page, pageSize],
  )
  // the last row of a later page was deleted: step back to a page that has rows
  useEffect(() => {
    if (list.data && list.data.items.length === 0 && page > 1 && list.data.total > 0) setPage(Math.max(1, Math.ceil(list.data.total / pageSize)))
  }, [list.data, page, pageSize])
  return {
    ...list,
    text,
    setText,
    keyword,
    applyNow: () => apply(text.trim()),
    clear: () => {
      setText('')
      apply('')
    },
    page,
    setPage,
    pageSize,
    setPageSize: (size) => {
      setPageSize(size)
      setPage(1)
    },
  }
}

/** The list's search box (label "Search"): searches as you type, at once on Enter. */
export function SearchBox({ search, placeholder }: { search: PagedSearch<unknown>; placeholder: string }) {
  const { t } = useI18n()
  return (
    <form
      class="filters"
      role="search"
      onSubmit={(event) => {
        event.preventDefault()
        search.applyNow()
      }}
    >
      <TextField label={t('common.search')} type="search" value={search.text} onValue={search.setText} placeholder={placeholder} autocomplete="off" />
    </form>
  )
}
