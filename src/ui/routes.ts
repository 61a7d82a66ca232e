import type { ComponentType } from 'preact'
import type { MessageKey } from './i18n'
import { Role } from './api/types'
import { DashboardPage } from './pages/dashboard'
import { PlaygroundPage } from './pages/playground'
import { TokensPage } from './pages/tokens'
import { LogsPage } from './pages/logs'
import { WalletPage } from './pages/wallet'
import { ProfilePage } from './pages/profile'
import { ChannelsPage } from './pages/channels'
import { PricingPage } from './pages/pricing'
import { ModelSquarePage } from './pages/models'
import { UsersPage } from './pages/users'
import { RedemptionsPage } from './pages/redemptions'
import { SettingsPage } from './pages/settings'
import { OrdersPage } from './pages/orders'
import { PlansPage } from './pages/plans'
import { MidjourneyPage, TasksPage } from './pages/tasks'

export interface PageRoute {
  path: string
  /** the navigation link's name (and the page's title) */
  label: MessageKey
  role: number
  component: ComponentType<any>
  icon: string
}

/** The logged-in pages, in navigation order. URLs are part of the contract: each deep link works on reload. */
export const PAGES: readonly PageRoute[] = [
  { path: '/dashboard', label: 'nav.dashboard', role: Role.user, component: DashboardPage, icon: 'dashboard' },
  { path: '/playground', label: 'nav.playground', role: Role.user, component: PlaygroundPage, icon: 'chat' },
  { path: '/models', label: 'models.title', role: Role.user, component: ModelSquarePage, icon: 'tag' },
  { path: '/tokens', label: 'nav.tokens', role: Role.user, component: TokensPage, icon: 'key' },
  { path: '/logs', label: 'nav.logs', role: Role.user, component: LogsPage, icon: 'list' },
  { path: '/midjourney', label: 'tasks.mj.title', role: Role.user, component: MidjourneyPage, icon: 'image' },
  { path: '/tasks', label: 'tasks.title', role: Role.user, component: TasksPage, icon: 'list' },
  { path: '/wallet', label: 'nav.wallet', role: Role.user, component: WalletPage, icon: 'wallet' },
  { path: '/profile', label: 'nav.profile', role: Role.user, component: ProfilePage, icon: 'user' },
  { path: '/channels', label: 'nav.channels', role: Role.admin, component: ChannelsPage, icon: 'plug' },
  { path: '/pricing', label: 'nav.pricing', role: Role.admin, component: PricingPage, icon: 'tag' },
  { path: '/users', label: 'nav.users', role: Role.admin, component: UsersPage, icon: 'users' },
  { path: '/orders', label: 'orders.title', role: Role.admin, component: OrdersPage, icon: 'receipt' },
  { path: '/plans', label: 'plans.title', role: Role.root, component: PlansPage, icon: 'receipt' },
  { path: '/redemptions', label: 'nav.redemptions', role: Role.admin, component: RedemptionsPage, icon: 'ticket' },
  { path: '/settings', label: 'nav.settings', role: Role.root, component: SettingsPage, icon: 'gear' },
]
