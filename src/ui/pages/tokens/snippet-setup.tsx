import { SelectField } from '../../components/field'
import { modelChoices, UnpricedWarning } from '../../components/model-choice'
import { useI18n } from '../../i18n'
import { noneHasPrice } from '../../lib/model-choice'
import { snippetModel, tokenModels } from '../../lib/snippets'
import { useModelPrices, useRememberedModel } from '../../state/model-choice'
import { SetupTabs } from './setup-tabs'

const MODEL_KEY = 'tollgate.snippet.model'

interface Props {
  token: { model_limits_enabled: boolean; model_limits: string }
  /** the models the user's group can call; undefined while loading */
  models: readonly string[] | undefined
  baseUrl: string
  keyText: string
}

/**
 * The client setups for a token, naming a model that can chat and has a price (the last one picked while it
 * still is valid), with a picker for the others; a warning instead when none of the token's models has a price.
 */
export function SnippetSetup({ token, models, baseUrl, keyText }: Props) {
  const { t } = useI18n()
  const { prices, loading } = useModelPrices()
  const { remembered, picked, remember } = useRememberedModel(MODEL_KEY)
  const offered = tokenModels(token, models)
  // a moment's wait rather than snippets that turn into a warning
  if (loading) return <p class="muted">{t('tokens.setup.loading')}</p>
  if (noneHasPrice(offered, prices)) return <UnpricedWarning />
  const model = snippetModel(token, models, { prices, remembered, picked })
  return (
    <>
      <p class="muted">{t('tokens.setup.lead', { url: baseUrl, model })}</p>
      {offered.length > 1 && <SelectField label={t('tokens.setup.model')} hint={t('tokens.setup.modelHint')} value={model} options={modelChoices(offered, prices, t)} onValue={remember} />}
      <SetupTabs baseUrl={baseUrl} keyText={keyText} model={model} />
    </>
  )
}
