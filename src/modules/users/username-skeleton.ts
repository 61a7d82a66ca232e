/**
 * The look-alike rule that goes with username-rule.ts, kept apart because its table (Unicode's confusables.txt, UTS
 * #39, through `unhomoglyph`: about 100 KB) belongs on the server only. Two names with one skeleton read alike:
 * `root`, `Root`, Cyrillic `rооt` and fullwidth `ｒｏｏｔ` all give `root`. Compatibility forms are folded (NFKC) and
 * case is folded first, so `ERIN` meets `erin` (not `erln`, as a capital I alone would); then each character becomes
 * its prototype (`1` and `l` meet at `l`, `0` and `o` at `o`), folded once more.
 */
export function usernameSkeleton(name: string): string {
  return prototypes()(name.normalize('NFKC').toLowerCase()).normalize('NFKC').toLowerCase()
}

let table: ((text: string) => string) | undefined
// required on first use, not imported: a gateway that never checks a username never builds the table
const prototypes = () => (table ??= require('unhomoglyph') as (text: string) => string)
