import unhomoglyph from 'unhomoglyph'

/**
 * The look-alike rule that goes with username-rule.ts, kept apart because its table (Unicode's confusables.txt, UTS
 * #39, through `unhomoglyph`: about 100 KB) belongs on the server only. Two names with one skeleton read alike:
 * `root`, `Root`, Cyrillic `rооt` and fullwidth `ｒｏｏｔ` all give `root`. Compatibility forms are folded (NFKC),
 * each character becomes its prototype, case is folded and the lower case forms mapped again (so `I`, `l` and `1`
 * meet at `l`).
 */
export function usernameSkeleton(name: string): string {
  return unhomoglyph(unhomoglyph(name.normalize('NFKC')).toLowerCase()).normalize('NFKC')
}
