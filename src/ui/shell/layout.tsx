import type { ComponentChildren } from 'preact'
import { useState } from 'preact/hooks'
import { SideNav } from './side-nav'
import { SiteFooter, SiteHeader } from './site-header'
import { TopBar } from './top-bar'

/** The logged-in frame: top bar, side navigation (behind "Menu" on phones) and the page. */
export function Layout({ children }: { children: ComponentChildren }) {
  const [menuOpen, setMenuOpen] = useState(false)
  return (
    <div class="layout">
      <TopBar menuOpen={menuOpen} onMenu={() => setMenuOpen(!menuOpen)} />
      <div class="layout-body">
        <SideNav open={menuOpen} onNavigate={() => setMenuOpen(false)} />
        <main class="content" id="main">
          {children}
        </main>
      </div>
    </div>
  )
}

/**
 * The frame of the public pages (home, models, about, legal) and of login: the instance's name and logo,
 * its links, language and theme; a centred card for the forms (`card`), the page's width otherwise; the
 * operator's footer and the legal links under it.
 */
export function PublicFrame({ children, card }: { children: ComponentChildren; card?: boolean }) {
  return (
    <div class="public-frame">
      <SiteHeader />
      <main class={card ? 'public-card' : 'public-page'} id="main">
        {children}
      </main>
      <SiteFooter />
    </div>
  )
}
