import { Link } from 'wouter-preact'
import { Role } from '../api/types'
import { useI18n, type I18n } from '../i18n'
import { isPriced, type ModelPrices } from '../lib/model-choice'
import { useUser } from '../state/session'
import type { Choice } from './field'

/** A model picker's options, in the given order, those without a price marked. */
export function modelChoices(models: readonly string[], prices: ModelPrices | undefined, t: I18n['t']): Choice[] {
  return models.map((model) => ({ value: model, label: isPriced(model, prices) === false ? t('pricing.noneHasPrice.option', { model }) : model }))
}

/**
 * Shown instead of a model that would be refused for want of a price: admins get the way to the Pricing page
 * (root also to self-use mode in Settings), users are told to ask.
 */
export function UnpricedWarning() {
  const { t } = useI18n()
  const { role } = useUser()
  return (
    <div class="alert alert-warning unpriced-warning" role="note">
      <p>{t('pricing.noneHasPrice.warning')}</p>
      {role >= Role.admin ? (
        <p>
          {t('pricing.noneHasPrice.before')}
          <Link href="/pricing">{t('pricing.noneHasPrice.pricingLink')}</Link>
          {role >= Role.root ? (
            <>
              {t('pricing.noneHasPrice.afterRoot')}
              <Link href="/settings#settings-billing">{t('pricing.noneHasPrice.settingsLink')}</Link>
              {t('pricing.noneHasPrice.afterSettings')}
            </>
          ) : (
            t('pricing.noneHasPrice.after')
          )}
        </p>
      ) : (
        <p>{t('pricing.noneHasPrice.askAdmin')}</p>
      )}
    </div>
  )
}
