// The username rule, with no imports: the server's schema and the console's forms share this one file.
/**
 * 1–20 characters (code points: an emoji or a CJK character counts once) of any script, without whitespace or
 * control/format characters. new-api allows any name of up to 20 characters, so imported users (Chinese names
 * included) keep theirs; whitespace stays out so a name never looks like another in a list or a log. Written for
 * a RegExp without the `u` flag (TypeBox compiles patterns without it): a surrogate pair is matched as one unit.
 */
export const USERNAME_PATTERN =
  '^(?:[\\uD800-\\uDBFF][\\uDC00-\\uDFFF]|[^\\s\\u0000-\\u001F\\u007F-\\u009F\\u00AD\\u061C\\u180E\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u206F\\uFEFF\\uFFF9-\\uFFFB\\uD800-\\uDFFF]){1,20}$'
