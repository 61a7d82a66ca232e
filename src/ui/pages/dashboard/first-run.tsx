import type { ComponentChildren } from 'preact'
import { Link } from 'wouter-preact'
import { api } from '../../api/client'
import { ErrorAlert } from '../../components/alert'
import { UnpricedActions } from '../../components/unpriced-actions'
import { useI18n } from '../../i18n'
import { useApi } from '../../state/use-api'

/** GET /api/setup/checklist (src/modules/setup/checklist.ts) */
interface Checklist {
  channels: number
  self_use: boolean
  unpriced_count: number
  unpriced_models: string[]
  tokens: number
  requests: number
}

const SHOWN_MODELS = 5

/**
 * The way from "root created" to a first answer: channel → prices or self-use → key → a request. Read from the
 * server (what exists), so it is right on any browser; it goes away once the admin's first request answered.
 */
export function FirstRunChecklist() {
  const { t } = useI18n()
  const state = useApi(() => api.get<Checklist>('/api/setup/checklist'), [])
  const data = state.data
  if (state.error) return <ErrorAlert error={state.error} />
  if (!data || data.requests > 0) return null
  const priced = data.self_use || (data.channels > 0 && data.unpriced_count === 0)
  const steps = [data.channels > 0, priced, data.tokens > 0, false]
  const done = steps.filter(Boolean).length
  const models = data.unpriced_models.slice(0, SHOWN_MODELS).join(', ') + (data.unpriced_count > SHOWN_MODELS ? ', …' : '')
  return (
    <section class="section card first-run" aria-labelledby="first-run-title">
      <div class="first-run-head">
        <h2 id="first-run-title" class="section-title">
          {t('firstRun.checklist.title')}
        </h2>
        <span class="muted">{t('firstRun.checklist.progress', { done, total: steps.length })}</span>
      </div>
      <p class="muted">{t('firstRun.checklist.lead')}</p>
      <ol class="first-run-steps">
        <Step n={1} done={steps[0]!} title={t('firstRun.step.channel')} hint={data.channels > 0 ? t('firstRun.step.channelDone', { count: data.channels }) : t('firstRun.step.channelHint')}>
          <Link href="/channels?new=1" class={`btn ${steps[0] ? 'btn-ghost' : 'btn-primary'}`}>
            {t('firstRun.step.channelGo')}
          </Link>
        </Step>
        <Step
          n={2}
          done={priced}
          title={t('firstRun.step.prices')}
          hint={data.self_use ? t('firstRun.step.pricesSelfUse') : data.unpriced_count > 0 ? t('firstRun.step.pricesMissing', { count: data.unpriced_count, models }) : priced ? t('firstRun.step.pricesAll') : t('firstRun.step.pricesHint')}
        >
          {!priced && <UnpricedActions onSelfUse={state.reload} />}
        </Step>
        <Step n={3} done={steps[2]!} title={t('firstRun.step.token')} hint={t('firstRun.step.tokenHint')}>
          <Link href="/tokens?new=1" class={`btn ${steps[2] ? 'btn-ghost' : 'btn-primary'}`}>
            {t('firstRun.step.tokenGo')}
          </Link>
        </Step>
        <Step n={4} done={false} title={t('firstRun.step.try')} hint={t('firstRun.step.tryHint')}>
          <Link href="/playground" class="btn btn-primary">
            {t('firstRun.step.tryGo')}
          </Link>
        </Step>
      </ol>
    </section>
  )
}

function Step({ n, done, title, hint, children }: { n: number; done: boolean; title: string; hint: string; children?: ComponentChildren }) {
  const { t } = useI18n()
  return (
    <li class={`first-run-step${done ? ' is-done' : ''}`}>
      <span class="first-run-mark" aria-hidden="true">
        {done ? '✓' : n}
      </span>
      <div class="first-run-text">
        <strong>{title}</strong>
        <span class="visually-hidden"> ({t(done ? 'firstRun.checklist.done' : 'firstRun.checklist.todo')})</span>
        <p class="field-hint">{hint}</p>
      </div>
      <div class="first-run-action">{children}</div>
    </li>
  )
}
