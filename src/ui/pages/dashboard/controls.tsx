import { Segmented } from '../../components/segmented'
import { useI18n } from '../../i18n'
import { RANGE_IDS, type Granularity, type RangeId } from '../../lib/usage-series'

export type Scope = 'all' | 'mine'

export interface ChartChoices {
  scope: Scope
  range: RangeId
  unit: Granularity
  stacked: boolean
}

/** What the charts show: whose usage (admins), which range, hours or days, stacked or separate models. */
export function ChartControls({ admin, choices, onChange }: { admin: boolean; choices: ChartChoices; onChange(next: ChartChoices): void }) {
  const { t } = useI18n()
  const set = (patch: Partial<ChartChoices>) => onChange({ ...choices, ...patch })
  return (
    <div class="chart-controls">
      {admin && (
        <Segmented<Scope>
          label={t('dashboard.scope.label')}
          value={choices.scope}
          options={[
            { value: 'all', label: t('dashboard.scope.all') },
            { value: 'mine', label: t('dashboard.scope.mine') },
          ]}
          onChange={(scope) => set({ scope })}
        />
      )}
      <Segmented
        label={t('dashboard.range.label')}
        value={choices.range}
        options={RANGE_IDS.map((range) => ({ value: range, label: t(`dashboard.range.${range}`) }))}
        onChange={(range) => set({ range, unit: range === '24h' ? 'hour' : choices.range === '24h' ? 'day' : choices.unit })}
      />
      <Segmented<Granularity>
        label={t('dashboard.unit.label')}
        value={choices.unit}
        options={[
          { value: 'hour', label: t('dashboard.unit.hour') },
          { value: 'day', label: t('dashboard.unit.day') },
        ]}
        onChange={(unit) => set({ unit })}
      />
      <Segmented
        label={t('dashboard.mode.label')}
        value={choices.stacked}
        options={[
          { value: true, label: t('dashboard.mode.stacked') },
          { value: false, label: t('dashboard.mode.lines') },
        ]}
        onChange={(stacked) => set({ stacked })}
      />
    </div>
  )
}
