/**
 * Characters that change how the text around them is shown, or show as nothing: controls (Cc, C0 and C1), format
 * characters (Cf: the bidi overrides, embeddings, isolates and marks U+202A–202E, U+2066–2069, U+200E/F, U+061C, the
 * zero-width space and joiners, the BOM, the soft hyphen…) and halves of a UTF-16 pair (Cs). A right-to-left override
 * shows what follows it reversed: `scan\u202Egpj.exe` reads as `scanexe.jpg`, an executable shown as a picture; a
 * zero-width space makes two names that look the same differ.
 */
const HIDDEN = /[\p{Cc}\p{Cf}\p{Cs}]/gu;

/** The text without controls, format characters and lone surrogates (HIDDEN). */
export function withoutHiddenCharacters(text: string): string {
  return text.replace(HIDDEN, '');
}

const FORMAT = /\p{Cf}/gu;

/**
 * Display text without its format characters (Cf; see HIDDEN), for text shown to others that may hold line breaks (an
 * address): its controls are left to the field's own rules.
 */
export function withoutFormatCharacters(text: string): string {
  return text.replace(FORMAT, '');
}

/** class-transformer's `@Transform` of a display text field: withoutFormatCharacters on a string, anything else as it came. */
export const stripFormatCharacters = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' ? withoutFormatCharacters(value) : value;

/** The first `max` characters of the text, counted by code point: a character outside the BMP is never cut in half. */
export function firstCharacters(text: string, max: number): string {
  const characters = Array.from(text);
  return characters.length <= max ? text : characters.slice(0, max).join('');
}

/**
 * A name a user gave a file, as it may be kept and shown: its last path segment, without hidden characters
 * (withoutHiddenCharacters) or quotes, trimmed, at most `max` characters; `fallback` when nothing is left.
 */
export function cleanFileName(filename: string, max = 200, fallback = 'file'): string {
  const base = filename.split(/[/\\]/).pop() ?? '';
  const name = firstCharacters(withoutHiddenCharacters(base).replace(/"/g, '').trim(), max).trim();
  return name || fallback;
}
