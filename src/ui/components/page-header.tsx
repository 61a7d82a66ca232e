import type { ComponentChildren } from 'preact'
import { useEffect } from 'preact/hooks'
import { useSession } from '../state/session'

/** Every page: a title, one line saying what the page is for, the primary action at the top right. */
export function PageHeader({ title, lead, actions }: { title: string; lead: string; actions?: ComponentChildren }) {
  const { status } = useSession()
  useEffect(() => {
    document.title = `${title} · ${status?.system_name || 'Tollgate'}`
  }, [title, status?.system_name])
  return (
    <header class="page-header">
      <div>
        <h1>{title}</h1>
        <p class="lead">{lead}</p>
      </div>
      {actions && <div class="page-actions">{actions}</div>}
    </header>
  )
}
