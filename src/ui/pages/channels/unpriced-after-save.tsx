import { api } from '../../api/client'
import { UnpricedActions } from '../../components/unpriced-actions'
import { useI18n } from '../../i18n'
import { useApi } from '../../state/use-api'

/** After a save: "N models have no price", with the two ways out, unless self-use mode serves them anyway. */
export function UnpricedAfterSave() {
  const { t } = useI18n()
  const state = useApi(() => api.get<{ self_use: boolean; unpriced_count: number; unpriced_models: string[] }>('/api/setup/checklist'), [])
  const data = state.data
  if (!data || data.self_use || data.unpriced_count === 0) return null
  return (
    <div class="alert alert-warning" role="status">
      <p>
        <strong>{t('firstRun.unpriced.title', { count: data.unpriced_count })}</strong> {t('firstRun.unpriced.body')}
      </p>
      <p class="field-hint">{data.unpriced_models.slice(0, 8).join(', ')}</p>
      <UnpricedActions onSelfUse={state.reload} />
    </div>
  )
}
