import { useState } from 'preact/hooks'
import { api } from '../../api/client'
import { ErrorAlert } from '../../components/alert'
import { Button } from '../../components/button'
import { Drawer } from '../../components/drawer'
import { CheckboxField, SelectField, TextAreaField, TextField } from '../../components/field'
import { useToast } from '../../components/toast'
import { useI18n } from '../../i18n'
import { useSession } from '../../state/session'
import { channelBody, checkChannelForm, customSuggestions, formOf, keyCount, movesStoredKey, type ChannelForm, type FieldProblem, type FormField } from '../../lib/channel-form'
import { CHANNEL_PRESETS, CHANNEL_TYPES, channelType, channelTypeName } from '../../lib/channel-types'
import { KeyStates } from './key-states'
import { OverrideFields } from './override-fields'
import { upstreamFindings, upstreamSettingsBody, UpstreamSwitches } from './upstream-check'
import { checkOverrideForm, overrideBody, overrideFormOf, type OverrideField, type OverrideForm, type OverrideProblem } from '../../lib/channel-overrides-form'
import { ModelPicker } from './model-picker'
import { CodexSignIn } from './codex-sign-in'
import type { Overview } from '../pricing/types'
import { useApi } from '../../state/use-api'
import type { Channel, TypeInfo } from './types'

/** Custom (OpenAI-compatible): any model may be behind it, so the instance's own models are suggested too. */
const CUSTOM_TYPE = 8

/** Types whose key is not an API key: the form says what to paste (AWS Bedrock's parts, Vertex's service account file). */
const KEY_FORMS = {
  33: { placeholder: 'channels.field.keyPlaceholder.bedrock', hint: 'channels.field.keyHint.bedrock' },
  41: { placeholder: 'channels.field.keyPlaceholder.vertex', hint: 'channels.field.keyHint.vertex' },
  57: { placeholder: 'codex.signIn', hint: 'codex.keyHint' },
} as const
/** What `other` holds, for the types that read it. */
const OTHER_HINTS = { 3: 'channels.field.otherHint.azure', 39: 'channels.field.otherHint.cloudflare', 41: 'channels.field.otherHint.vertex' } as const

interface Props {
  /** the channel to edit; undefined creates one */
  channel?: Channel
  types: readonly TypeInfo[]
  tags: readonly string[]
  onSaved(): void
  onClose(): void
}

/** Create or edit a channel: every field new-api's form has, checked before sending. */
export function ChannelDrawer({ channel, types, tags, onSaved, onClose }: Props) {
  const { t } = useI18n()
  const toast = useToast()
  const isRoot = (useSession().user?.role ?? 0) >= 100
  const [form, setForm] = useState<ChannelForm>(() => formOf(channel))
  const [problems, setProblems] = useState<Partial<Record<FormField, FieldProblem>>>({})
  const [overrides, setOverrides] = useState<OverrideForm>(() => overrideFormOf(channel))
  const [overrideProblems, setOverrideProblems] = useState<Partial<Record<OverrideField, OverrideProblem>>>({})
  const setOverride = <K extends keyof OverrideForm>(key: K, value: OverrideForm[K]) => setOverrides((current) => ({ ...current, [key]: value }))
  const [upstream, setUpstream] = useState(() => upstreamFindings(channel))
  const [failure, setFailure] = useState<unknown>()
  const [busy, setBusy] = useState(false)
  const set = <K extends keyof ChannelForm>(key: K) => (value: ChannelForm[K]) => {
    setForm((current) => ({ ...current, [key]: value }))
    // a field's message goes once it is edited (the form's fields and its checks share names)
    if (key in problems) setProblems(({ [key as FormField]: _, ...rest }) => rest)
  }
  const type = Number(form.type)
  const known = channelType(type)
  const info = types.find((entry) => entry.type === type)
  const custom = type === CUSTOM_TYPE
  const instanceModels = useApi(async () => (custom ? api.get<Overview>('/api/pricing/models') : undefined), [custom])
  const suggested = custom ? customSuggestions(info?.models ?? [], instanceModels.data) : (info?.models ?? [])
  const creating = !channel
  const keyLines = keyCount(form.key)
  const keyForm = KEY_FORMS[type as keyof typeof KEY_FORMS]
  const otherHint = OTHER_HINTS[type as keyof typeof OTHER_HINTS]

  const message = (field: FormField, label: string): string | undefined => {
    const problem = problems[field]
    if (!problem) return undefined
    if (problem.code === 'required') return t('common.error.required', { field: label })
    if (problem.code === 'url') return t('channels.error.url')
    if (problem.code === 'keyToMove') return t('channels.error.keyToMove')
    if (problem.code === 'range') return t('channels.error.range', { field: label, min: problem.min, max: problem.max })
    const error = problem.error
    if (error.code === 'value') return t('channels.error.mappingValue', { name: error.name })
    if (error.code === 'cycle') return t('channels.error.mappingCycle', { path: error.path })
    return t(error.code === 'json' ? 'channels.error.mappingJson' : 'channels.error.mappingObject')
  }

  const submit = async (event: Event) => {
    event.preventDefault()
    const found = checkChannelForm(form, { creating, keyRequired: known?.keyRequired ?? true, baseUrlRequired: known ? !known.baseUrl && !known.baseUrlOptional : false })
    // a stored key goes to a new address only with the key typed again (root excepted): keys stay where they were sent
    const addressed = types.find((entry) => entry.type === channel?.type)?.other_field?.addressed === true || info?.other_field?.addressed === true
    if (channel && !isRoot && !found.key && movesStoredKey(form, channel, addressed)) found.key = { code: 'keyToMove' }
    setProblems(found)
    const overrideFound = checkOverrideForm(overrides)
    setOverrideProblems(overrideFound)
    if (Object.keys(found).length > 0 || Object.keys(overrideFound).length > 0) return
    setBusy(true)
    setFailure(undefined)
    try {
      const body = { ...channelBody(form, channel?.id), ...overrideBody(overrides, channel), ...upstreamSettingsBody(upstream, channel) }
      if (channel) await api.put('/api/channel/', body)
      else await api.post('/api/channel/', body)
      toast(t(creating ? 'channels.toast.created' : 'channels.toast.saved', { name: form.name.trim() }))
      onSaved()
    } catch (error) {
      setFailure(error)
    } finally {
      setBusy(false)
    }
  }

  const typeChoices = [...CHANNEL_TYPES.map((entry) => ({ value: String(entry.type), label: entry.name }))]
  if (!known) typeChoices.push({ value: form.type, label: channelTypeName(type) })

  return (
    <Drawer
      title={channel ? t('channels.edit.title', { name: channel.name }) : t('channels.create.title')}
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button type="submit" form="channel-form" variant="primary" busy={busy}>
            {creating ? t('common.create') : t('common.save')}
          </Button>
        </>
      }
    >
      <form id="channel-form" class="form" onSubmit={submit} noValidate>
        <SelectField label={t('channels.field.type')} value={form.type} options={typeChoices} onValue={set('type')} />
        <TextField label={t('channels.field.name')} value={form.name} onValue={set('name')} required maxLength={200} error={message('name', t('channels.field.name'))} />
        <TextAreaField
          label={t('channels.field.key')}
          value={form.key}
          onValue={set('key')}
          rows={3}
          autocomplete="off"
          spellcheck={false}
          class="mono"
          placeholder={creating ? t(keyForm?.placeholder ?? 'channels.field.keyPlaceholder') : t('channels.field.keyKeep', { mask: channel!.key_mask })}
          hint={keyLines > 1 ? t('channels.field.keyPool', { count: keyLines }) : keyForm ? t(keyForm.hint) : creating ? t('channels.field.keyHint') : t('channels.field.keyEditHint')}
          error={message('key', t('channels.field.key'))}
        />
        {type === 57 && <CodexSignIn channelId={channel?.id} onKey={set('key')} />}
        {!creating && keyLines > 0 && <CheckboxField label={t('channels.field.appendKeys')} checked={form.appendKeys} onChecked={set('appendKeys')} />}
        {channel && channel.key_count > 1 && <KeyStates channelId={channel.id} />}
        <TextField
          label={t('channels.field.baseUrl')}
          type="url"
          value={form.baseUrl}
          onValue={set('baseUrl')}
          placeholder={known?.baseUrl || 'https://'}
          hint={known?.baseUrl ? t('channels.field.baseUrlHint', { url: known.baseUrl }) : known?.baseUrlOptional ? t('channels.field.baseUrlFromKey') : t('channels.field.baseUrlRequired')}
          error={message('baseUrl', t('channels.field.baseUrl'))}
          list={type === 8 ? 'channel-drawer-presets' : undefined}
        />
        {type === 8 && (
          // OpenAI-compatible services without a type of their own (Groq, Together …): Custom with their base URL
          <datalist id="channel-drawer-presets">
            {CHANNEL_PRESETS.map((preset) => (
              <option key={preset.baseUrl} value={preset.baseUrl} label={preset.name} />
            ))}
          </datalist>
        )}
        {(otherHint || info?.other_field || form.other) && (
          <TextField label={t('channels.field.other')} value={form.other} onValue={set('other')} spellcheck={false} class="mono" hint={otherHint ? t(otherHint) : info?.other_field?.meaning} />
        )}
        <ModelPicker value={form.models} onValue={set('models')} error={message('models', t('channels.field.models'))} upstream={{ type, key: form.key, base_url: form.baseUrl.trim(), other: form.other, ...(channel ? { id: channel.id } : {}) }} suggested={suggested} suggestedLabel={custom ? t('channels.models.suggestedCustom') : undefined} />
        <TextField label={t('channels.field.groups')} value={form.groups} onValue={set('groups')} hint={t('channels.field.groupsHint')} />
        <div class="form-row">
          <TextField label={t('channels.field.priority')} inputMode="numeric" value={form.priority} onValue={set('priority')} hint={t('channels.field.priorityHint')} error={message('priority', t('channels.field.priority'))} />
          <TextField label={t('channels.field.weight')} inputMode="numeric" value={form.weight} onValue={set('weight')} hint={t('channels.field.weightHint')} error={message('weight', t('channels.field.weight'))} />
        </div>
        <TextField label={t('channels.field.tag')} value={form.tag} onValue={set('tag')} list="channel-drawer-tags" maxLength={100} />
        <datalist id="channel-drawer-tags">
          {tags.map((tag) => (
            <option key={tag} value={tag} />
          ))}
        </datalist>
        <TextAreaField
          label={t('channels.field.modelMapping')}
          value={form.modelMapping}
          onValue={set('modelMapping')}
          rows={4}
          spellcheck={false}
          class="mono"
          placeholder={'{\n  "gpt-4": "gpt-4o"\n}'}
          hint={t('channels.field.modelMappingHint')}
          error={message('modelMapping', t('channels.field.modelMapping'))}
        />
        <TextField label={t('channels.field.testModel')} value={form.testModel} onValue={set('testModel')} placeholder={info?.test_model} hint={t('channels.field.testModelHint')} />
        <CheckboxField label={t('channels.field.autoBan')} hint={t('channels.field.autoBanHint')} checked={form.autoBan} onChecked={set('autoBan')} />
        <UpstreamSwitches check={upstream.check} autoSync={upstream.autoSync} onChange={(next) => setUpstream((current) => ({ ...current, ...next }))} />
        <OverrideFields form={overrides} problems={overrideProblems} onChange={setOverride} />
        <ErrorAlert error={failure} />
      </form>
    </Drawer>
  )
}
