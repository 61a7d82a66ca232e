/**
 * Where each vendor tells an account's balance, and how to read its answer (new-api's channel balances; the paths and
 * fields from the vendors' documented billing endpoints). Keyed by provider id; every path is under the channel's own
 * base URL, so the key goes nowhere the channel does not already send it. A reader returns the balance, or undefined
 * when the answer does not have one. Amounts are in the vendor's account currency: US$ for OpenAI-style resellers,
 * OpenRouter and DeepSeek accounts with a USD balance; CNY for SiliconFlow, Moonshot and DeepSeek's CNY accounts.
 */
type Json = Record<string, any>
export interface BalanceEndpoint {
  /** the GET calls, in order; `read` gets their JSON answers */
  paths: (now: Date) => string[]
  read: (answers: Json[]) => number | undefined
}

const num = (v: unknown): number | undefined => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN
  return Number.isFinite(n) ? n : undefined
}
const day = (d: Date) => d.toISOString().slice(0, 10)

/** OpenAI's legacy dashboard, which resellers keep: the hard limit less this month's (or 100 days') usage in cents. */
const openAiDashboard: BalanceEndpoint = {
  paths: (now) => {
    const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1))
    return ['/v1/dashboard/billing/subscription', `/v1/dashboard/billing/usage?start_date=${day(start)}&end_date=${day(now)}`]
  },
  read: ([subscription, usage]) => {
    const limit = num(subscription?.hard_limit_usd)
    const used = num(usage?.total_usage)
    return limit === undefined || used === undefined ? undefined : limit - used / 100
  },
}

export const BALANCE_ENDPOINTS: Record<string, BalanceEndpoint> = {
  openai: openAiDashboard,
  custom: openAiDashboard,
  deepseek: {
    paths: () => ['/user/balance'],
    read: ([answer]) => {
      const infos: Json[] = Array.isArray(answer?.balance_infos) ? answer.balance_infos : []
      const info = infos.find((i) => i?.currency === 'USD') ?? infos.find((i) => i?.currency === 'CNY')
      return num(info?.total_balance)
    },
  },
  openrouter: {
    paths: () => ['/v1/credits'],
    read: ([answer]) => {
      const total = num(answer?.data?.total_credits)
      const used = num(answer?.data?.total_usage)
      return total === undefined || used === undefined ? undefined : total - used
    },
  },
  siliconflow: {
    paths: () => ['/v1/user/info'],
    read: ([answer]) => (answer?.code === 20000 ? num(answer?.data?.totalBalance) : undefined),
  },
  moonshot: {
    paths: () => ['/v1/users/me/balance'],
    read: ([answer]) => (answer?.code === 0 && answer?.status !== false ? num(answer?.data?.available_balance) : undefined),
  },
}
