/**
 * The words of a text: runs of letters, digits and marks with single inner `-`/`_` connectors,
 * found by hand-written scanners over per-code-unit classes (the index build and the pack's term
 * counts scan millions of words). What a word's index terms are is tokenize.ts's business.
 */

/** Per-UTF-16-unit class: 0 unknown, 1 word character, 2 other. Filled lazily (a regex per new unit). */
const CHAR_CLASS = new Uint8Array(65536);
const WORD_CHAR_RE = /[\p{L}\p{N}\p{M}]/u;

function isWordUnit(code: number): boolean {
	let c = CHAR_CLASS[code];
	if (c === 0) {
		// Surrogates: the astral letters behind them (CJK extension B…) are word characters often
		// enough — except U+1F000–U+1FBFF (high surrogates D83C–D83E): emoji and pictographs, which
		// separate words as a space does (`🔡STAR`, `📚Deep Work`). Variation selectors (the `️` after
		// `⭐`) are marks that belong to the symbol before them, not to a word.
		if (code >= 0xd83c && code <= 0xd83e) c = 2;
		else if (code >= 0xfe00 && code <= 0xfe0f) c = 2;
		else c = (code >= 0xd800 && code <= 0xdfff) || WORD_CHAR_RE.test(String.fromCharCode(code)) ? 1 : 2;
		CHAR_CLASS[code] = c;
	}
	return c === 1;
}

/** Per ASCII unit: 1 for a word character (what {@link wordAt} says of it), else 0; a scanner's fast path. */
export const ASCII_WORD = Uint8Array.from({ length: 0x80 }, (_, c) =>
	WORD_CHAR_RE.test(String.fromCharCode(c)) ? 1 : 0,
);

/** Whether the unit at `i` is a word character: a low surrogate is what its high surrogate is. */
export function wordAt(text: string, i: number): boolean {
	const code = text.charCodeAt(i);
	if (code >= 0xdc00 && code <= 0xdfff) return i > 0 && isWordUnit(text.charCodeAt(i - 1));
	return isWordUnit(code);
}

/**
 * The words of a text, one at a time: runs of letters, digits and marks, with single inner
 * `-`/`_` connectors (`front-end`, `snake_case`). A hand-written scanner: the equivalent global
 * regex allocates a match array per word, and vault builds tokenize millions of words. A cursor
 * rather than a callback so a resumable caller can pause between two words.
 */
export class WordCursor {
	/** Start of the current word. */
	start = 0;
	/** End (exclusive) of the current word; where the next search starts. */
	end = 0;

	/** A cursor before the first word of `text`. */
	constructor(readonly text: string) {}

	/** Move to the next word; false at the end of the text. */
	next(): boolean {
		const text = this.text;
		const n = text.length;
		let i = this.end;
		while (i < n && !wordAt(text, i)) i++;
		if (i >= n) {
			this.start = this.end = n;
			return false;
		}
		this.start = i;
		for (;;) {
			while (i < n && wordAt(text, i)) i++;
			const c = text.charCodeAt(i);
			if ((c === 45 || c === 95) && i + 1 < n && wordAt(text, i + 1)) {
				i++;
				continue;
			}
			break;
		}
		this.end = i;
		return true;
	}

	/** The current word. */
	word(): string {
		return this.text.slice(this.start, this.end);
	}
}

/** Call `onWord` for every word of `text` ({@link WordCursor}). */
export function forEachWord(text: string, onWord: (word: string) => void): void {
	const words = new WordCursor(text);
	while (words.next()) onWord(words.word());
}

/** Below this code unit no script needs the special path (Thai starts here; CJK, Hangul… far above). */
const PLAIN_SCRIPT_END = 0x0e00;
/** Lower case of each unit below {@link PLAIN_SCRIPT_END}, filled lazily (0: unknown). */
const LOWER_UNIT = new Uint16Array(PLAIN_SCRIPT_END);

/** The lower case of a unit below {@link PLAIN_SCRIPT_END} (itself when it has none or lower-cases to more than one unit). */
function lowerUnit(c: number): number {
	let l = LOWER_UNIT[c]!;
	if (l === 0) {
		const s = String.fromCharCode(c).toLowerCase();
		l = LOWER_UNIT[c] = s.length === 1 ? s.charCodeAt(0) : c;
	}
	return l;
}

/**
 * {@link forEachWord} for counting a few known terms: a word that is surely simple — no `-`/`_`
 * connector, no ASCII capital after its first letter (so never a compound), nothing of the CJK or
 * South-East Asian scripts — has one index term, which starts with the word's lower-cased first
 * letter (folding and stemming keep it: an ASCII first letter always; a Cyrillic, Arabic… one when
 * no Latin or Greek letter with diacritics makes folding decompose the word). Such a word is
 * passed on only when `firstWanted` (indexed by code unit, below U+0E00) holds that letter; most
 * words of a text are skipped without a slice. (forEachWord's scan with the flags added: the
 * index build's scanner stays without them.)
 */
export function forEachWordStartingWith(text: string, firstWanted: Uint8Array, onWord: (word: string) => void): void {
	const n = text.length;
	let i = 0;
	while (i < n) {
		while (i < n && !wordAt(text, i)) i++;
		if (i >= n) return;
		const start = i;
		let simple = true;
		let folds = false; // a Latin-1…Greek letter: folding may decompose the word
		for (;;) {
			for (let c = text.charCodeAt(i); i < n && wordAt(text, i); c = text.charCodeAt(++i)) {
				if (c >= PLAIN_SCRIPT_END || (c >= 65 && c <= 90 && i > start)) simple = false;
				else if (c >= 0x80 && c < 0x400) folds = true;
			}
			const c = text.charCodeAt(i);
			if ((c === 45 || c === 95) && i + 1 < n && wordAt(text, i + 1)) {
				simple = false;
				i++;
				continue;
			}
			break;
		}
		const first = text.charCodeAt(start);
		const known = simple && (first < 0x80 || (first >= 0x400 && !folds));
		if (!known || firstWanted[lowerUnit(first)] === 1) onWord(text.slice(start, i));
	}
}
