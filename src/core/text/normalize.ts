/**
 * One Unicode rule for every text match (issue 15): both sides are compared in NFC, and
 * case-insensitive matching compares case-folded text. Both transforms keep line breaks where they
 * are — NFC never composes across a line feed and the fold never changes a string's length — so a
 * match found in the normalised text maps back to the same line of the original.
 */

/** A character outside tab…DEL (text without one is ASCII, its own NFC; the rare C0 controls below tab take the slow path). */
const NON_ASCII = /[^\t-\u007f]/;

/** `text` in Unicode normalisation form C (canonical composition); ASCII text is returned as it is, uncopied. */
export function nfc(text: string): string {
	return NON_ASCII.test(text) ? text.normalize('NFC') : text;
}

/**
 * Code points whose lower case differs from the lower case of their upper case (`ſ`→`s`, `ς`→`σ`,
 * `µ`→`μ`…): RE2's case-insensitive matching treats each as equal to its partner, so the fold maps
 * them together. Generated from `String#toUpperCase`/`toLowerCase`; test/text/normalize.test.ts
 * recomputes it over every code point.
 */
export const FOLD_EXTRA: Readonly<Record<string, string>> = {
	'\u00b5': '\u03bc',
	'\u0131': 'i',
	'\u017f': 's',
	'\u0345': '\u03b9',
	'\u03c2': '\u03c3',
	'\u03d0': '\u03b2',
	'\u03d1': '\u03b8',
	'\u03d5': '\u03c6',
	'\u03d6': '\u03c0',
	'\u03f0': '\u03ba',
	'\u03f1': '\u03c1',
	'\u03f5': '\u03b5',
	'\u1c80': '\u0432',
	'\u1c81': '\u0434',
	'\u1c82': '\u043e',
	'\u1c83': '\u0441',
	'\u1c84': '\u0442',
	'\u1c85': '\u0442',
	'\u1c86': '\u044a',
	'\u1c87': '\u0463',
	'\u1c88': '\ua64b',
	'\u1e9b': '\u1e61',
	'\u1fbe': '\u03b9',
};

const FOLD_EXTRA_CLASS = `[${Object.keys(FOLD_EXTRA)
	.map((ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`)
	.join('')}]`;
const HAS_FOLD_EXTRA = new RegExp(FOLD_EXTRA_CLASS);
const FOLD_EXTRA_ALL = new RegExp(FOLD_EXTRA_CLASS, 'g');

/**
 * Lower case, code unit for code unit: `İ` (the one character whose lower case is longer) stays
 * itself, as it does in RE2's folding. Case-insensitive literals compare this.
 */
export function lowerCase(text: string): string {
	return text.includes('\u0130')
		? text
				.split('\u0130')
				.map((part) => part.toLowerCase())
				.join('\u0130')
		: text.toLowerCase();
}

/**
 * The case fold of the trigram index: {@link lowerCase}, with the partners of {@link FOLD_EXTRA}
 * merged, so characters RE2 treats as equal fold alike. Length-preserving; two texts equal under
 * {@link lowerCase} are equal under this fold too (so it never loses a literal's match).
 */
export function foldCase(text: string): string {
	const lower = lowerCase(text);
	return HAS_FOLD_EXTRA.test(lower) ? lower.replace(FOLD_EXTRA_ALL, (ch) => FOLD_EXTRA[ch]!) : lower;
}

/** How names, tags and property values compare (issue 15): NFC, then lower case. */
export function normalKey(text: string): string {
	return nfc(text).toLowerCase();
}
