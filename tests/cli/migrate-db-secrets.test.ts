/**
 * `tollgate migrate-db` tries the crypto secret it found on what was sealed with it: a channel key, and every sealed
 * setting (secret options such as SMTPToken, the sign-in providers' secrets, TelegramBotToken, WeChatServerToken,
 * and custom providers' client secrets), naming the ones it does not open.
 */
import { expect, test } from 'bun:test'
import { secretsAdvice, type FoundSecret } from '../../src/cli/migrate-db-secrets'
import { createSecretBox } from '../../src/crypto/secret-box'

const CRYPTO = 'c'.repeat(48)
const OTHER = 'o'.repeat(48)
const found = (crypto: string | undefined): FoundSecret[] => [
  { name: 'SESSION_SECRET', value: 's'.repeat(48), where: 'the environment' },
  { name: 'CRYPTO_SECRET', value: crypto, where: crypto ? 'the environment' : '/data/crypto.secret' },
]

test('every sealed setting opens: said so, with their names', async () => {
  const box = createSecretBox(CRYPTO)
  const settings = [
    { name: 'SMTPToken', sealed: await box.encrypt('smtp') },
    { name: 'TelegramBotToken', sealed: await box.encrypt('123:AAH') },
    { name: 'custom provider corp-sso', sealed: await box.encrypt('corp') },
  ]
  const advice = await secretsAdvice(found(CRYPTO), await box.encrypt('sk-channel'), false, settings)
  expect(advice).toContain('The crypto secret opens the copied channel keys.')
  expect(advice).toContain('The crypto secret opens the sealed settings too (SMTPToken, TelegramBotToken, custom provider corp-sso).')
  expect(advice).not.toContain('WARNING')
})

test('a setting sealed under another secret is named; without a secret every one is', async () => {
  const settings = [
    { name: 'SMTPToken', sealed: await createSecretBox(CRYPTO).encrypt('smtp') },
    { name: 'WeChatServerToken', sealed: await createSecretBox(OTHER).encrypt('wechat') },
  ]
  const advice = await secretsAdvice(found(CRYPTO), undefined, false, settings)
  expect(advice).toContain('WARNING: this crypto secret does NOT open these sealed settings: WeChatServerToken (')
  expect(advice).not.toContain('smtp')
  const without = await secretsAdvice(found(undefined), undefined, false, settings)
  expect(without).toContain('WARNING: without the crypto secret the sealed settings cannot be read: SMTPToken, WeChatServerToken.')
})
