import type { en } from './en'

/** A string's key: the English catalog names every one (a catalog's own file imports it from here, not from the catalog that imports it). */
export type MessageKey = keyof typeof en
