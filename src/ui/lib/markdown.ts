/**
 * Markdown → safe HTML: `marked` (GitHub-flavoured, HTML inside allowed as new-api allows it) and then
 * DOMPurify, which drops scripts, event handlers, `javascript:` URLs, frames and forms. Loaded on demand
 * (components/markdown.tsx), so the first page does not carry it.
 */
import DOMPurify from 'dompurify'
import { Marked } from 'marked'

const marked = new Marked({ gfm: true, breaks: false, async: false })

// links leave the console in a new tab without handing it `window.opener` or the page's address
DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'A' && node.getAttribute('href')) {
    node.setAttribute('target', '_blank')
    node.setAttribute('rel', 'noopener noreferrer')
  }
})

const PURIFY = {
  USE_PROFILES: { html: true },
  FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'iframe', 'frame', 'object', 'embed', 'base', 'meta', 'link'],
  FORBID_ATTR: ['style'],
  ADD_ATTR: ['target'],
}

export function renderMarkdown(text: string): string {
  return DOMPurify.sanitize(marked.parse(text) as string, PURIFY) as string
}
