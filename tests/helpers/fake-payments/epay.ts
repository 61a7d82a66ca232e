/**
 * A fake 易支付 (EPay) gateway following the protocol: `submit.php` takes the merchant's signed form (MD5 of the
 * sorted parameters + key), shows a Pay button; paying calls the merchant's `notify_url` (GET, signed parameters
 * with `trade_status=TRADE_SUCCESS`, expecting `success`) and sends the browser to `return_url`.
 */
import { createHash } from 'node:crypto'

export interface FakeEpay {
  url: string
  pid: string
  key: string
  /** the orders submitted to it, by out_trade_no */
  orders: Map<string, Record<string, string>>
  /** the notify's parameters for an order, signed (override any to forge one) */
  notifyParams(tradeNo: string, patch?: Record<string, string>, sign?: boolean): Record<string, string>
  /** call the notify URL as the gateway does; answers the merchant's body */
  notify(tradeNo: string, patch?: Record<string, string>): Promise<string>
  stop(): void
}

export function sign(params: Record<string, string>, key: string): string {
  const text = Object.keys(params)
    .filter((k) => k !== 'sign' && k !== 'sign_type' && params[k] !== '')
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join('&')
  return createHash('md5').update(text + key).digest('hex')
}

export function startFakeEpay(): FakeEpay {
  const orders = new Map<string, Record<string, string>>()
  let n = 0
  const fake: FakeEpay = {
    url: '',
    pid: '1001',
    key: 'epay-merchant-key-0123',
    orders,
    notifyParams(tradeNo, patch = {}, signIt = true) {
      const order = orders.get(tradeNo) ?? { out_trade_no: tradeNo, type: 'alipay', name: 'x', money: '1.00' }
      const params: Record<string, string> = {
        pid: fake.pid,
        trade_no: `EP${++n}`,
        out_trade_no: tradeNo,
        type: order.type!,
        name: order.name!,
        money: order.money!,
        trade_status: 'TRADE_SUCCESS',
        ...patch,
      }
      if (signIt) params.sign = sign(params, fake.key)
      params.sign_type = 'MD5'
      return params
    },
    async notify(tradeNo, patch) {
      const order = orders.get(tradeNo)!
      const query = new URLSearchParams(fake.notifyParams(tradeNo, patch))
      return (await fetch(`${order.notify_url}?${query}`)).text()
    },
    stop: () => server.stop(true),
  }
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(request) {
      const url = new URL(request.url)
      if (url.pathname === '/submit.php') {
        const params = Object.fromEntries(request.method === 'POST' ? new URLSearchParams(await request.text()) : url.searchParams)
        if (params.pid !== fake.pid || params.sign !== sign(params, fake.key)) return new Response('签名错误 (bad signature)', { status: 400 })
        orders.set(params.out_trade_no!, params)
        return new Response(
          `<!doctype html><title>EPay (fake)</title><h1>Pay ¥${params.money}</h1><form method="post" action="/pay"><input type="hidden" name="out_trade_no" value="${params.out_trade_no}"><button>Pay</button></form>`,
          { headers: { 'content-type': 'text/html; charset=utf-8' } },
        )
      }
      if (url.pathname === '/pay' && request.method === 'POST') {
        const tradeNo = new URLSearchParams(await request.text()).get('out_trade_no')!
        const answer = await fake.notify(tradeNo)
        if (answer !== 'success') return new Response(`merchant answered ${answer}`, { status: 500 })
        return Response.redirect(orders.get(tradeNo)!.return_url!, 303)
      }
      return new Response('not found', { status: 404 })
    },
  })
  fake.url = `http://127.0.0.1:${server.port}`
  return fake
}
