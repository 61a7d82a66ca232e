import type { MailMessage } from '../outbound/smtp'

/** The languages a mail is written in: the console's two. */
export type MailLocale = 'en' | 'zh-CN'

/** The console's locale as sent (`lang`), or the Accept-Language header's first known one; English otherwise. */
export function mailLocale(lang: string | undefined, acceptLanguage: string | null): MailLocale {
  const wanted = lang || acceptLanguage || ''
  return /^\s*zh/i.test(wanted) ? 'zh-CN' : 'en'
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

interface Parts {
  subject: string
  /** paragraphs, plain text; `{link}` in one is the link, `{code}` the code, shown prominently in HTML */
  lines: string[]
}

/** One message from paragraphs: the text part as they are, the HTML part escaped, the link clickable. */
function render(to: string, parts: Parts, values: { code?: string; link?: string }): MailMessage {
  const fill = (line: string) => line.replace('{code}', values.code ?? '').replace('{link}', values.link ?? '')
  const htmlLine = (line: string) =>
    escapeHtml(line)
      .replace('{code}', `<strong style="font-size:20px;letter-spacing:2px">${escapeHtml(values.code ?? '')}</strong>`)
      .replace('{link}', `<a href="${escapeHtml(values.link ?? '')}">${escapeHtml(values.link ?? '')}</a>`)
  return {
    to,
    subject: parts.subject,
    text: parts.lines.map(fill).join('\n\n') + '\n',
    html: `<!doctype html><html><body style="font-family:sans-serif;font-size:14px">${parts.lines.map((l) => `<p>${htmlLine(l)}</p>`).join('')}</body></html>`,
  }
}

export function verificationCodeMail(to: string, locale: MailLocale, system: string, code: string, minutes: number): MailMessage {
  const parts: Parts =
    locale === 'zh-CN'
      ? { subject: `${system} 邮箱验证码`, lines: [`你正在注册 ${system}。`, '验证码：{code}', `验证码 ${minutes} 分钟内有效。如果不是你本人操作，请忽略这封邮件。`] }
      : { subject: `Your ${system} verification code`, lines: [`You are signing up for ${system}.`, 'Your code: {code}', `It works for ${minutes} minutes. If this was not you, ignore this mail.`] }
  return render(to, parts, { code })
}

export function emailChangeCodeMail(to: string, locale: MailLocale, system: string, code: string, minutes: number): MailMessage {
  const parts: Parts =
    locale === 'zh-CN'
      ? { subject: `${system} 更换邮箱验证码`, lines: [`你正在把 ${system} 账户的邮箱改为这个地址。`, '验证码：{code}', `验证码 ${minutes} 分钟内有效。如果不是你本人操作，请忽略这封邮件。`] }
      : { subject: `Confirm your new ${system} e-mail address`, lines: [`You are changing the e-mail address of your ${system} account to this one.`, 'Your code: {code}', `It works for ${minutes} minutes. If this was not you, ignore this mail.`] }
  return render(to, parts, { code })
}

/** Sent instead of a code when the address already has an account: the answer to the request stays the same. */
export function accountExistsMail(to: string, locale: MailLocale, system: string): MailMessage {
  const parts: Parts =
    locale === 'zh-CN'
      ? { subject: `${system} 注册请求`, lines: [`有人用这个邮箱申请注册 ${system}，但它已经有账户了。`, '你可以直接登录；忘记密码时可在登录页选择“忘记密码”。如果不是你本人操作，请忽略这封邮件。'] }
      : { subject: `${system} sign-up request`, lines: [`Someone asked to sign up for ${system} with this address, which already has an account.`, 'You can sign in; if you forgot the password, choose "Forgot password" on the sign-in page. If this was not you, ignore this mail.'] }
  return render(to, parts, {})
}

export function resetLinkMail(to: string, locale: MailLocale, system: string, link: string, minutes: number): MailMessage {
  const parts: Parts =
    locale === 'zh-CN'
      ? { subject: `${system} 重置密码`, lines: [`你正在重置 ${system} 的密码。打开下面的链接设置新密码：`, '{link}', `链接 ${minutes} 分钟内有效，只能使用一次。如果不是你本人操作，请忽略这封邮件，密码不会改变。`] }
      : { subject: `Reset your ${system} password`, lines: [`Open this link to choose a new ${system} password:`, '{link}', `It works once, for ${minutes} minutes. If this was not you, ignore this mail: your password stays as it is.`] }
  return render(to, parts, { link })
}

export function testMail(to: string, locale: MailLocale, system: string): MailMessage {
  const parts: Parts =
    locale === 'zh-CN'
      ? { subject: `${system} 测试邮件`, lines: [`这是 ${system} 的测试邮件：SMTP 设置可以发信。`] }
      : { subject: `${system} test mail`, lines: [`This is a test mail from ${system}: the SMTP settings work.`] }
  return render(to, parts, {})
}
