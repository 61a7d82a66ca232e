import type { ComponentChildren } from 'preact'
import { useState } from 'preact/hooks'
import { SideNav } from './side-nav'
import { Preferences, TopBar } from './top-bar'

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

/** The frame of the pages before login: a centred card, with language and theme at the top. */
export function PublicFrame({ children }: { children: ComponentChildren }) {
  return (
    <div class="public-frame">
      <header class="public-top">
        <Preferences />
      </header>
      <main class="public-card">{children}</main>
    </div>
  )
}
