/**
 * Character classes used by the block and inline scanners. Everything works on UTF-16 code
 * units (`charCodeAt`) so the hot loops never allocate or run a regex per character.
 */

/** Code units the scanners compare against, named for readability. */
export const CH = {
	TAB: 9,
	LF: 10,
	CR: 13,
	SPACE: 32,
	BANG: 33,
	QUOTE: 34,
	HASH: 35,
	DOLLAR: 36,
	PERCENT: 37,
	APOS: 39,
	LPAREN: 40,
	RPAREN: 41,
	STAR: 42,
	PLUS: 43,
	DASH: 45,
	DOT: 46,
	SLASH: 47,
	ZERO: 48,
	NINE: 57,
	COLON: 58,
	LT: 60,
	EQ: 61,
	GT: 62,
	LBRACKET: 91,
	BACKSLASH: 92,
	RBRACKET: 93,
	CARET: 94,
	UNDERSCORE: 95,
	BACKTICK: 96,
	PIPE: 124,
	TILDE: 126,
} as const;

const ASCII_PUNCT = new Uint8Array(128);
for (const c of '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~') ASCII_PUNCT[c.charCodeAt(0)] = 1;

/** True for the ASCII punctuation characters CommonMark lets a backslash escape. */
export function isAsciiPunct(c: number): boolean {
	return c < 128 && ASCII_PUNCT[c] === 1;
}

/** True for a space or a tab (the only indentation characters in Markdown). */
export function isSpaceOrTab(c: number): boolean {
	return c === 32 || c === 9;
}

/** The first offset at or after `p` (and before `end`) that is not a space or a tab. */
export function skipBlanks(text: string, p: number, end: number): number {
	while (p < end && isSpaceOrTab(text.charCodeAt(p))) p++;
	return p;
}

/** End of [s, e) with trailing spaces and tabs dropped. */
export function trimmedEnd(text: string, s: number, e: number): number {
	while (e > s && isSpaceOrTab(text.charCodeAt(e - 1))) e--;
	return e;
}

/**
 * The virtual column at `to` when the blanks [from, to) start at column `col`: a space is one
 * column, a tab runs to the next multiple of 4 (CommonMark's tab stops, for indentation).
 */
export function columnAfter(text: string, from: number, to: number, col: number): number {
	for (let k = from; k < to; k++) col = text.charCodeAt(k) === CH.TAB ? col + 4 - (col & 3) : col + 1;
	return col;
}

/** True for what JavaScript's `\s` matches (ASCII controls ≤ 0x20 included for safety). */
export function isWhitespace(c: number): boolean {
	if (c <= 32) return true;
	if (c < 0xa0) return false;
	return (
		c === 0xa0 ||
		c === 0x1680 ||
		(c >= 0x2000 && c <= 0x200a) ||
		c === 0x2028 ||
		c === 0x2029 ||
		c === 0x202f ||
		c === 0x205f ||
		c === 0x3000 ||
		c === 0xfeff
	);
}

// Obsidian ends a tag at whitespace, at ASCII punctuation other than `_ - /`, and anywhere in
// the General Punctuation (U+2000–206F, which holds the zero-width joiner and spaces) and
// Supplemental Punctuation (U+2E00–2E7F) blocks. Everything else — letters of any script,
// digits, emoji (both surrogate halves) — continues it.
const TAG_ASCII = new Uint8Array(128);
for (let c = 33; c < 128; c++) TAG_ASCII[c] = ASCII_PUNCT[c] === 1 ? 0 : 1;
TAG_ASCII[CH.UNDERSCORE] = 1;
TAG_ASCII[CH.DASH] = 1;
TAG_ASCII[CH.SLASH] = 1;
TAG_ASCII[127] = 0;

/** True when `c` may appear in a tag name after the `#`. */
export function isTagChar(c: number): boolean {
	if (c < 128) return TAG_ASCII[c] === 1;
	if (c >= 0x2000 && c <= 0x206f) return false;
	if (c >= 0x2e00 && c <= 0x2e7f) return false;
	return !(c === 0xa0 || c === 0x1680 || c === 0x3000 || c === 0xfeff);
}

/** True for an ASCII letter. */
export function isAsciiLetter(c: number): boolean {
	return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

/** True for an ASCII digit. */
export function isDigit(c: number): boolean {
	return c >= 48 && c <= 57;
}
