import { twofa } from '../i18n/en/twofa'

type FactorCode = keyof typeof twofa extends infer K ? (K extends `twofa.error.${infer C}` ? C : never) : never

/** Whether the console words this refusal of the second-factor routes itself (its catalog has the code). */
export function isFactorCode(code: string): code is FactorCode {
  return `twofa.error.${code}` in twofa
}
