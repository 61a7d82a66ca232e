import { useEffect, useRef, useState } from 'preact/hooks'
import { useI18n } from '../i18n'

type Renderer = (text: string) => string
let loading: Promise<Renderer> | undefined
/** The renderer's chunk (marked + DOMPurify), fetched once, on the first Markdown shown. */
const loadRenderer = () => (loading ??= import('../lib/markdown').then((module) => module.renderMarkdown))

/**
 * The operator's (or a model's) Markdown, sanitized. Until the renderer has loaded the text shows as plain
 * text; code blocks get a Copy button.
 */
export function Markdown({ text, class: className }: { text: string; class?: string }) {
  const { t } = useI18n()
  const [render, setRender] = useState<Renderer>()
  const ref = useRef<HTMLDivElement>(null)
  useEffect(() => {
    let live = true
    void loadRenderer().then((renderer) => live && setRender(() => renderer))
    return () => {
      live = false
    }
  }, [])
  useEffect(() => {
    const box = ref.current
    if (!box || !render) return
    box.innerHTML = render(text)
    for (const pre of box.querySelectorAll('pre')) addCopyButton(pre, t('common.copy'), t('common.copied'))
  }, [render, text, t])
  if (!render) return <div class={`markdown ${className ?? ''}`}>{text}</div>
  return <div class={`markdown ${className ?? ''}`} ref={ref} />
}

function addCopyButton(pre: HTMLPreElement, label: string, done: string): void {
  const button = document.createElement('button')
  button.type = 'button'
  button.className = 'btn btn-ghost markdown-copy'
  button.textContent = label
  button.addEventListener('click', () => {
    void navigator.clipboard?.writeText(pre.querySelector('code')?.textContent ?? pre.textContent ?? '').then(() => {
      button.textContent = done
      setTimeout(() => (button.textContent = label), 1500)
    })
  })
  pre.append(button)
}
