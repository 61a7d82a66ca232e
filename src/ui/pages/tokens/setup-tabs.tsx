import { useId, useMemo, useRef, useState } from 'preact/hooks'
import { CopyButton } from '../../components/copy-button'
import { useI18n, type MessageKey } from '../../i18n'
import { buildSnippets, SETTINGS, SHELL, type Snippet, type SnippetBlock } from '../../lib/snippets'

/** Client setups as tabs (WAI-ARIA tabs: arrow keys, Home and End move between them), each block with a copy button. */
export function SetupTabs({ baseUrl, keyText, model }: { baseUrl: string; keyText: string; model: string }) {
  const { t } = useI18n()
  const snippets = useMemo(() => buildSnippets({ baseUrl, key: keyText, model }), [baseUrl, keyText, model])
  const [active, setActive] = useState(0)
  const tabs = useRef<HTMLDivElement>(null)
  const base = useId()
  const label = (snippet: Snippet) => (snippet.id === 'openai-compatible' ? t('tokens.snippet.openaiCompatible') : snippet.label)

  const onKeyDown = (event: KeyboardEvent) => {
    const last = snippets.length - 1
    const next = event.key === 'ArrowRight' ? (active === last ? 0 : active + 1) : event.key === 'ArrowLeft' ? (active === 0 ? last : active - 1) : event.key === 'Home' ? 0 : event.key === 'End' ? last : undefined
    if (next === undefined) return
    event.preventDefault()
    setActive(next)
    tabs.current?.querySelectorAll<HTMLButtonElement>('[role=tab]')[next]?.focus()
  }

  const snippet = snippets[active]!
  return (
    <div class="setup">
      <div class="tabs setup-tabs" role="tablist" aria-label={t('tokens.setup.tabs')} ref={tabs} onKeyDown={onKeyDown}>
        {snippets.map((item, index) => (
          <button
            key={item.id}
            type="button"
            role="tab"
            class="tab"
            id={`${base}-tab-${index}`}
            aria-selected={index === active}
            aria-controls={`${base}-panel`}
            tabIndex={index === active ? 0 : -1}
            onClick={() => setActive(index)}
          >
            {label(item)}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${base}-panel`} aria-labelledby={`${base}-tab-${active}`} class="setup-panel">
        <p class="muted setup-note">{t(`tokens.snippet.note.${snippet.id}` as MessageKey)}</p>
        {snippet.blocks.map((block) => (
          <Block key={`${snippet.id}-${block.title}`} block={block} client={label(snippet)} />
        ))}
      </div>
    </div>
  )
}

function Block({ block, client }: { block: SnippetBlock; client: string }) {
  const { t } = useI18n()
  const title = block.title === SHELL ? t('tokens.snippet.shell') : block.title === SETTINGS ? t('tokens.snippet.settings') : block.title
  return (
    <div class="snippet">
      <div class="snippet-head">
        <span class="snippet-title">{title}</span>
        <CopyButton text={block.code} label={t('tokens.setup.copyBlock', { client, block: title })} />
      </div>
      <pre class="code-block" tabIndex={0}>
        <code class={`language-${block.language}`}>{block.code}</code>
      </pre>
    </div>
  )
}
