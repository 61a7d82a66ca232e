import { useEffect, useState } from 'preact/hooks'
import { Button } from '../../components/button'
import { SelectField, TextField } from '../../components/field'
import { useI18n } from '../../i18n'
import { CHANNEL_TYPES } from '../../lib/channel-types'
import { NO_FILTERS, type Filters } from './types'

/** Keyword and model apply on Search (or Enter); type, status and tag as soon as they are picked. */
export function ChannelFilters({ value, tags, onChange }: { value: Filters; tags: readonly string[]; onChange(next: Filters): void }) {
  const { t } = useI18n()
  const [keyword, setKeyword] = useState(value.keyword)
  const [model, setModel] = useState(value.model)
  useEffect(() => {
    setKeyword(value.keyword)
    setModel(value.model)
  }, [value.keyword, value.model])
  const pick = (key: keyof Filters) => (next: string) => onChange({ ...value, keyword, model, [key]: next })
  const tagChoices = value.tag && !tags.includes(value.tag) ? [...tags, value.tag] : tags
  return (
    <form
      class="filters"
      role="search"
      onSubmit={(event) => {
        event.preventDefault()
        onChange({ ...value, keyword: keyword.trim(), model: model.trim() })
      }}
    >
      <TextField label={t('channels.filter.keyword')} type="search" value={keyword} onValue={setKeyword} placeholder={t('channels.filter.keywordPlaceholder')} />
      <SelectField
        label={t('channels.filter.type')}
        value={value.type}
        onValue={pick('type')}
        options={[{ value: '', label: t('common.all') }, ...CHANNEL_TYPES.map((type) => ({ value: String(type.type), label: type.name }))]}
      />
      <SelectField
        label={t('common.status')}
        value={value.status}
        onValue={pick('status')}
        options={[
          { value: '', label: t('common.all') },
          { value: '1', label: t('channels.status.enabled') },
          { value: 'disabled', label: t('channels.filter.anyDisabled') },
          { value: '2', label: t('channels.status.manual') },
          { value: '3', label: t('channels.status.auto') },
        ]}
      />
      <SelectField label={t('channels.filter.tag')} value={value.tag} onValue={pick('tag')} options={[{ value: '', label: t('common.all') }, ...tagChoices.map((tag) => ({ value: tag, label: tag }))]} />
      <TextField label={t('common.model')} value={model} onValue={setModel} placeholder={t('channels.filter.modelPlaceholder')} />
      <div class="filter-actions">
        <Button type="submit">{t('common.search')}</Button>
        <Button variant="ghost" onClick={() => onChange(NO_FILTERS)}>
          {t('common.reset')}
        </Button>
      </div>
    </form>
  )
}
