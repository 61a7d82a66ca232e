import { useI18n } from '../../i18n'

/** Every known group with the multiplier its users pay. */
export function GroupRatios({ ratios }: { ratios: Record<string, number> }) {
  const { t, locale } = useI18n()
  const groups = Object.entries(ratios)
  if (groups.length === 0) return null
  const number = new Intl.NumberFormat(locale, { maximumFractionDigits: 6 })
  return (
    <section class="section group-ratios" aria-labelledby="group-ratios-title">
      <h2 id="group-ratios-title">{t('pricing.groups.title')}</h2>
      <p class="muted">{t('pricing.groups.lead')}</p>
      <div class="table-wrap">
        <table class="table">
          <caption class="visually-hidden">{t('pricing.groups.title')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('pricing.groups.group')}</th>
              <th scope="col" class="num">
                {t('pricing.groups.ratio')}
              </th>
            </tr>
          </thead>
          <tbody>
            {groups.map(([group, ratio]) => (
              <tr key={group}>
                <td>{group}</td>
                <td class="num">×{number.format(ratio)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  )
}
