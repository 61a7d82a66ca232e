import type { ComponentType } from 'preact'
import { Redirect, Route, Switch, useLocation } from 'wouter-preact'
import { ConfirmProvider } from './components/dialog'
import { ToastProvider } from './components/toast'
import { I18nProvider, useI18n } from './i18n'
import { LoginPage } from './pages/auth/login'
import { RegisterPage } from './pages/auth/register'
import { ForgotPasswordPage } from './pages/auth/forgot-password'
import { ResetPasswordPage } from './pages/auth/reset-password'
import { SetupPage } from './pages/auth/setup'
import { OAuthCallbackPage, TelegramBindPage } from './pages/auth/oauth-callback'
import { NotFound } from './pages/not-found'
import { ModelSquarePage } from './pages/models'
import { HomePage } from './pages/site/home'
import { AboutPage, PrivacyPolicyPage, UserAgreementPage } from './pages/site/pages'
import { PAGES } from './routes'
import { Layout, PublicFrame } from './shell/layout'
import { SessionProvider, useSession } from './state/session'

export function App() {
  return (
    <I18nProvider>
      <SessionProvider>
        <ToastProvider>
          <ConfirmProvider>
            <Routes />
          </ConfirmProvider>
        </ToastProvider>
      </SessionProvider>
    </I18nProvider>
  )
}

const PUBLIC_PATHS = ['/setup', '/login', '/register', '/reset', '/user/reset']
/** The instance's public face: open to everyone, logged in or not. */
const SITE_PAGES: Record<string, ComponentType> = { '/about': AboutPage, '/user-agreement': UserAgreementPage, '/privacy-policy': PrivacyPolicyPage }

/** Setup until root exists, the login page until someone is logged in, then the pages their role allows. */
function Routes() {
  const { status, user } = useSession()
  const { t } = useI18n()
  const [location] = useLocation()
  if (!status || user === undefined) return <p class="boot">{t('app.loading')}</p>
  if (!status.setup && location !== '/setup') return <Redirect to="/setup" replace />
  // the providers' callback URL: signed in or not (a binding comes back here too)
  if (location.startsWith('/oauth/')) {
    return (
      <PublicFrame>
        <Switch>
          <Route path="/oauth/telegram/bind" component={TelegramBindPage} />
          <Route path="/oauth/:provider" component={OAuthCallbackPage} />
        </Switch>
      </PublicFrame>
    )
  }
  const SitePage = SITE_PAGES[location]
  if (SitePage) return <PublicFrame><SitePage /></PublicFrame>
  if (!user) {
    if (location === '/') return <PublicFrame><HomePage /></PublicFrame>
    if (location === '/pricing' && status.public_pricing_enabled) return <PublicFrame><ModelSquarePage /></PublicFrame>
    if (!PUBLIC_PATHS.includes(location)) return <Redirect to={`/login?next=${encodeURIComponent(location)}`} replace />
    return (
      <PublicFrame card>
        <Switch>
          <Route path="/setup" component={SetupPage} />
          <Route path="/login" component={LoginPage} />
          <Route path="/register" component={RegisterPage} />
          <Route path="/reset" component={ForgotPasswordPage} />
          <Route path="/user/reset" component={ResetPasswordPage} />
        </Switch>
      </PublicFrame>
    )
  }
  if (location === '/' || PUBLIC_PATHS.includes(location)) return <Redirect to="/dashboard" replace />
  return (
    <Layout>
      <Switch>
        {PAGES.filter((page) => user.role >= page.role).map((page) => (
          <Route key={page.path} path={page.path} component={page.component} />
        ))}
        <Route component={NotFound} />
      </Switch>
    </Layout>
  )
}
