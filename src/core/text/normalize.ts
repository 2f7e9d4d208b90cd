/**
 * One Unicode rule for every text match (issue 15): both sides are compared in NFC, and
 * case-insensitive matching compares case-folded text. Both transforms keep line breaks where they
 * are — NFC never composes across a line feed and the fold never changes a string's length — so a
 * match found in the normalised text maps back to the same line of the original.
 */

/**
 * Characters that never change under NFC and never combine with what precedes them: text made only
 * of these is already NFC, which saves normalising most notes. Checked against `String#normalize`
 * over every code point by test/text/normalize.test.ts.
 */
const NFC_STABLE = /^[\t\n\r\x20-\u02ff\u0370-\u0373\u0375-\u037d\u037f-\u0382\u0384-\u0386\u0388-\u0482\u048a-\u0590\u05d0-\u05ff\u0621-\u064a\u0660-\u066f\u0671-\u06d5\u3000-\u3029\u3030-\u3098\u309b-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7a3\uff01-\uff9d]*$/;

/** Whether `text` is made only of characters that are known to be NFC and never combine (so it is NFC). */
export function isKnownNfc(text: string): boolean {
	return NFC_STABLE.test(text);
}

/** `text` in Unicode normalisation form C (canonical composition); cheap when it already is. */
export function nfc(text: string): string {
	return NFC_STABLE.test(text) ? text : text.normalize('NFC');
}

/**
 * Code points whose lower case differs from the lower case of their upper case (`ſ`→`s`, `ς`→`σ`,
 * `µ`→`μ`…): RE2's case-insensitive matching treats each as equal to its partner, so the fold maps
 * them together. Generated from `String#toUpperCase`/`toLowerCase`; test/text/normalize.test.ts
 * recomputes it over every code point.
 */
export const FOLD_EXTRA: Readonly<Record<string, string>> = {
	'\u00b5': '\u03bc', '\u0131': 'i', '\u017f': 's', '\u0345': '\u03b9', '\u03c2': '\u03c3', '\u03d0': '\u03b2', '\u03d1': '\u03b8', '\u03d5': '\u03c6',
	'\u03d6': '\u03c0', '\u03f0': '\u03ba', '\u03f1': '\u03c1', '\u03f5': '\u03b5', '\u1c80': '\u0432', '\u1c81': '\u0434', '\u1c82': '\u043e', '\u1c83': '\u0441',
	'\u1c84': '\u0442', '\u1c85': '\u0442', '\u1c86': '\u044a', '\u1c87': '\u0463', '\u1c88': '\ua64b', '\u1e9b': '\u1e61', '\u1fbe': '\u03b9',
};

const FOLD_EXTRA_CLASS = `[${Object.keys(FOLD_EXTRA)
	.map((ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`)
	.join('')}]`;
const HAS_FOLD_EXTRA = new RegExp(FOLD_EXTRA_CLASS);
const FOLD_EXTRA_ALL = new RegExp(FOLD_EXTRA_CLASS, 'g');

/**
 * The case fold used by every case-insensitive literal match and by the trigram index: lower case,
 * with the partners of {@link FOLD_EXTRA} merged. Length-preserving, code unit for code unit: `İ`
 * (the one character whose lower case is longer) stays itself, as it does in RE2's folding.
 */
export function foldCase(text: string): string {
	const lower = text.includes('\u0130') ? text.split('\u0130').map((part) => part.toLowerCase()).join('\u0130') : text.toLowerCase();
	return HAS_FOLD_EXTRA.test(lower) ? lower.replace(FOLD_EXTRA_ALL, (ch) => FOLD_EXTRA[ch]) : lower;
}

/** How names, tags and property values compare (issue 15): NFC, then lower case. */
export function normalKey(text: string): string {
	return nfc(text).toLowerCase();
}
