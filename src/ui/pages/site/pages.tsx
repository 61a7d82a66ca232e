import { useI18n } from '../../i18n'
import { OperatorPage } from './operator-page'

export function AboutPage() {
  const { t } = useI18n()
  return <OperatorPage path="/api/about" title={t('site.about')} allowFrame fallback={<p class="muted">{t('site.about.empty')}</p>} />
}

export function UserAgreementPage() {
  const { t } = useI18n()
  return <OperatorPage path="/api/user-agreement" title={t('site.userAgreement')} fallback={<p class="muted">{t('site.legal.empty')}</p>} />
}

export function PrivacyPolicyPage() {
  const { t } = useI18n()
  return <OperatorPage path="/api/privacy-policy" title={t('site.privacyPolicy')} fallback={<p class="muted">{t('site.legal.empty')}</p>} />
}
