/** Raw key/value rows of the runtime settings; typing, defaults and the in-memory copy live in src/options/. */
export interface OptionRepo {
  all(): Promise<Record<string, string>>
  /** Insert or replace. */
  set(key: string, value: string): Promise<void>
  delete(key: string): Promise<void>
}
