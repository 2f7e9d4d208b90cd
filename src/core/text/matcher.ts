/**
 * Every user-supplied pattern — grep, text-search, search's `/re/` and `"phrase"` clauses, the
 * vault's Excluded-files entries, the API — runs through a {@link TextMatcher}: a literal is found
 * with `indexOf` (never turned into a regex), a regex runs on RE2 (re2js), whose time is linear in
 * the text whatever the pattern. Both compare NFC text; case-insensitive literals compare
 * {@link lowerCase}, regexes RE2's own case folding.
 */
import { RE2JS } from 're2js';
import type { NoteBytes } from '../port';
import { capLines, lineStarts, offsetOfLine, offsetOfLineIn } from './lines';
import { scanLines } from './line-scan';
import { lowerCase, nfc } from './normalize';
import { MAX_REGEX_LINE_CHARS, MAX_REGEX_PROGRAM, patternProblem } from './pattern';
import { regexQuery } from './regex-trigrams';
import { literalQuery, type TrigramQuery } from './trigram-query';

/** What to match: a substring or a regex, with or without case. */
export interface MatchSpec {
	pattern: string;
	regex: boolean;
	caseSensitive: boolean;
}

/** The lines of a text holding a match. */
export interface LineHits {
	/** 0-based line indices, ascending, one per line. */
	lines: number[];
	/** Lines longer than {@link MAX_REGEX_LINE_CHARS} that a regex searched in their first part only. */
	cutLines: number;
	/** Where each line of `lines` starts (matched on a note's bytes: offsets in its bytes), so a listing finds its lines without a table of every line start. */
	starts?: number[];
	/**
	 * Matched on bytes with lines `before` asked: where the first line of each match's context
	 * starts (the line `before` lines up, or `fromLine`), so a listing does not search back for it.
	 */
	firstStarts?: number[];
	/** Matched on bytes by the WebAssembly scan: where each line of `lines` ends (its line end's offset, or the note's length). */
	ends?: number[];
}

/** `TextMatcher.onBytes`. */
type OnBytes = (note: string | NoteBytes, fromLine: number, before?: number) => LineHits | null;

/** A compiled, bounded pattern. */
export interface TextMatcher {
	readonly spec: MatchSpec;
	/** Lines of `text` from `fromLine` on holding a match (a match never spans lines). */
	matchingLines(text: string, fromLine: number): LineHits;
	/** Whether `text` holds a match anywhere (a regex may span lines; `^`/`$` match at line ends). */
	test(text: string): boolean;
	/** The trigrams a text must hold to match, for a trigram index (`any`: scan every text). */
	readonly trigrams: TrigramQuery;
	/**
	 * When the pattern can be matched on a note's bytes (an ASCII literal): `matchingLines` of the
	 * note whose bytes are `latin1` (one character per byte, so offsets and lines are the bytes'),
	 * or null when this note needs its text (see LiteralMatcher); with `before`, each match's
	 * `firstStarts` too; given the bytes themselves too, they are searched by the WebAssembly scan
	 * where there is one (line-scan.ts), with each line's `ends`. Null: match text only.
	 */
	readonly onBytes: OnBytes | null;
}

/** A matcher, or why the pattern was refused. */
export type CompiledMatcher = { ok: true; matcher: TextMatcher } | { ok: false; error: string };

/**
 * The characters whose NFC or lower case is ASCII (U+037E → `;`, U+1FEF → `` ` ``, U+212A → `K`,
 * `k`), keyed by that ASCII character, each as its UTF-8 bytes in Latin-1: an ASCII literal holding
 * one of the keys may match them, which the bytes alone do not show. test/text/matcher-bytes.test.ts
 * recomputes the list over every code point.
 */
export const BECOME_ASCII: Readonly<Record<string, string>> = {
	';': '\u00cd\u00be',
	'`': '\u00e1\u00bf\u00af',
	k: '\u00e2\u0084\u00aa',
	K: '\u00e2\u0084\u00aa',
};

/** Printable ASCII and tab: a needle of these is matched on bytes. */
const ASCII_NEEDLE = /^[\t\x20-\x7e]+$/;

/** A CR that does not start a CRLF (the note's text reads it as a line break). */
const LONE_CR = /\r(?!\n)/;

/** A combining mark (any of category M: every character NFC may join to the one before it is one). */
const MARK = /^\p{M}/u;

/**
 * Whether the UTF-8 character at byte `at` of a note's bytes (or the same as Latin-1, one
 * character per byte) is a combining mark; ASCII and the end of the text are not.
 */
function markAt(note: string | Uint8Array, at: number): boolean {
	const byte = (k: number): number => (typeof note === 'string' ? note.charCodeAt(at + k) : (note[at + k] ?? NaN));
	const lead = byte(0);
	if (!(lead >= 0x80)) return false;
	const next = (k: number): number => byte(k) & 0x3f;
	const code =
		lead < 0xe0
			? ((lead & 0x1f) << 6) | next(1)
			: lead < 0xf0
				? ((lead & 0x0f) << 12) | (next(1) << 6) | next(2)
				: ((lead & 0x07) << 18) | (next(1) << 12) | (next(2) << 6) | next(3);
	return MARK.test(String.fromCodePoint(code));
}

/** A substring matcher: `indexOf` over NFC (and folded) text. */
class LiteralMatcher implements TextMatcher {
	private readonly needle: string;
	readonly trigrams: TrigramQuery;
	readonly onBytes: OnBytes | null;
	/** The byte sequences (in Latin-1) that send a note to its text, for the needle's characters of BECOME_ASCII. */
	private readonly unsafe: string[];

	constructor(readonly spec: MatchSpec) {
		this.trigrams = literalQuery(spec.pattern);
		const normal = nfc(spec.pattern);
		this.needle = spec.caseSensitive ? normal : lowerCase(normal);
		const keys = Object.keys(BECOME_ASCII).filter((ch) =>
			spec.caseSensitive ? normal.includes(ch) : this.needle.includes(ch.toLowerCase()),
		);
		this.unsafe = [...new Set(keys.map((ch) => BECOME_ASCII[ch]!))];
		this.onBytes = ASCII_NEEDLE.test(this.needle)
			? (note, fromLine, before = 0) => this.bytesLines(note, fromLine, before)
			: null;
		this.folded = new RegExp(this.needle.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&'), 'gi');
	}

	/**
	 * The ASCII needle without case, for a note's bytes as Latin-1: it finds what `indexOf` finds in
	 * their lower case (no Latin-1 letter above 0x7f folds to ASCII without the `u` flag), without
	 * making that lower-cased copy of every note (a third of the matching's time, and its garbage).
	 */
	private readonly folded: RegExp;

	private haystack(text: string): string {
		const normal = nfc(text);
		return this.spec.caseSensitive ? normal : lowerCase(normal);
	}

	/**
	 * `matchingLines` on a note's bytes: an ASCII needle matches the same bytes in the text's NFC
	 * and lower case (which map no other character to ASCII than those of BECOME_ASCII, and change
	 * no ASCII byte but A–Z), except where a match is followed by a combining mark (which NFC may
	 * join to its last letter); that note, one holding a lone CR (a line break of the text) or one
	 * holding a character of BECOME_ASCII the needle has, is matched on its text (null). With
	 * `bytes`, the WebAssembly scan searches them where it can (a match followed by a byte above
	 * 0x7f is left to the search below, which looks for a combining mark there).
	 */
	private bytesLines(note: string | NoteBytes, fromLine: number, before: number): LineHits | null {
		if (typeof note !== 'string') {
			const scanned = this.scanBytes(note, fromLine, before);
			if (scanned !== undefined) return scanned;
		}
		const latin1 = typeof note === 'string' ? note : note.latin1;
		for (const unsafe of this.unsafe) if (latin1.includes(unsafe)) return null;
		if (latin1.includes('\r') && LONE_CR.test(latin1)) return null;
		if (this.spec.caseSensitive) return this.linesOf(latin1, fromLine, { latin1, before });
		const folded = this.folded;
		const n = this.needle.length;
		return this.linesOf(latin1, fromLine, { latin1, before }, (from) => {
			folded.lastIndex = from;
			return folded.test(latin1) ? folded.lastIndex - n : -1;
		});
	}

	/**
	 * `bytesLines` by the WebAssembly scan (line-scan.ts), on the bytes alone: their Latin-1 string
	 * is made only for a needle with a character of BECOME_ASCII, or a note holding a CR. Undefined
	 * where the scan cannot answer (the search in JavaScript then does).
	 */
	private scanBytes(note: NoteBytes, fromLine: number, before: number): LineHits | null | undefined {
		for (const unsafe of this.unsafe) if (note.latin1.includes(unsafe)) return null;
		const { bytes } = note;
		if (bytes.indexOf(13) >= 0 && LONE_CR.test(note.latin1)) return null;
		const from = offsetOfLineIn(bytes, fromLine);
		const scanned = scanLines(bytes, from, fromLine, this.needle, this.spec.caseSensitive, before);
		if (scanned === null) return undefined;
		const { lines, starts, ends, firstStarts, marks } = scanned;
		for (const at of marks) if (markAt(bytes, at)) return null;
		return before > 0 ? { lines, cutLines: 0, starts, ends, firstStarts } : { lines, cutLines: 0, starts, ends };
	}

	matchingLines(text: string, fromLine: number): LineHits {
		return this.linesOf(this.haystack(text), fromLine, null)!;
	}

	/**
	 * The lines of `hay` holding the needle (where `find` finds it from an offset on; by default
	 * `indexOf`), from line `fromLine` on. With `bytes.latin1` (the note's bytes, searched as they
	 * are: `hay` is the same string), null when a match is followed by a combining mark, and with
	 * `bytes.before` each match's `firstStarts`, from the last line starts passed on the way (kept
	 * in a ring): searching back for them with `lastIndexOf` was ~3× the cost of the walk forward.
	 */
	private linesOf(
		hay: string,
		fromLine: number,
		bytes: { latin1: string; before: number } | null,
		find = (from: number): number => hay.indexOf(this.needle, from),
	): LineHits | null {
		let from = offsetOfLine(hay, fromLine);
		let at = find(from);
		const lines: number[] = [];
		const starts: number[] | null = bytes !== null ? [] : null;
		const before = bytes?.before ?? 0;
		// The starts of the last `size` lines passed, the current line's at `pos` and the line `before`
		// lines up at the slot after it (wrapping; a counter, not `%`, which cost more than it saved).
		const size = before + 1;
		const ring: number[] | null = before > 0 ? new Array<number>(size).fill(0) : null;
		const firstStarts: number[] | null = ring !== null ? [] : null;
		const fromStart = from;
		let pos = 0;
		if (ring !== null) ring[0] = from;
		// Lines are counted as the matches are found, from one match to the next (no table of every line start).
		let line = fromLine;
		while (at >= 0) {
			if (bytes !== null && markAt(bytes.latin1, at + this.needle.length)) return null;
			let start = from;
			// Left at the first line end at or after the match (-1: none), the match line's end.
			let nl = hay.indexOf('\n', from);
			for (; nl >= 0 && nl < at; nl = hay.indexOf('\n', nl + 1)) {
				line++;
				start = nl + 1;
				if (ring !== null) {
					pos = pos + 1 === size ? 0 : pos + 1;
					ring[pos] = start;
				}
			}
			lines.push(line);
			starts?.push(start);
			if (ring !== null)
				firstStarts!.push(line - before >= fromLine ? ring[pos + 1 === size ? 0 : pos + 1]! : fromStart);
			const end = nl;
			if (end < 0) break;
			from = end + 1;
			line++;
			if (ring !== null) {
				pos = pos + 1 === size ? 0 : pos + 1;
				ring[pos] = from;
			}
			at = find(from);
		}
		if (starts === null) return { lines, cutLines: 0 };
		return firstStarts === null ? { lines, cutLines: 0, starts } : { lines, cutLines: 0, starts, firstStarts };
	}

	test(text: string): boolean {
		return this.haystack(text).includes(this.needle);
	}
}

/**
 * The regex engine's work so far in this process: its calls and the characters handed to them.
 * RE2 runs in time linear in the characters times the program's size (≤ {@link MAX_REGEX_PROGRAM}),
 * so these counts bound a search's regex work without a clock (tests read them; nothing else does).
 */
export const regexWork = { calls: 0, chars: 0 };

/** Line ranges this small are tested line by line rather than halved again. */
const SMALL_RANGE = 4;

/** A regex matcher on RE2: linear time in the text for any pattern. */
class RegexMatcher implements TextMatcher {
	readonly trigrams: TrigramQuery;
	readonly onBytes = null;

	constructor(
		readonly spec: MatchSpec,
		private readonly re: RE2JS,
	) {
		this.trigrams = regexQuery(spec.pattern);
	}

	/** RE2's boolean test of `text`, counted in {@link regexWork}. */
	private run(text: string): boolean {
		regexWork.calls++;
		regexWork.chars += text.length;
		return this.re.test(text);
	}

	/** NFC text with CRLF as LF (so `$` matches before a CR as it did in JavaScript) and long lines cut. */
	private haystack(text: string): { text: string; cut: number } {
		const normal = nfc(text);
		return capLines(normal.includes('\r') ? normal.replace(/\r\n/g, '\n') : normal, MAX_REGEX_LINE_CHARS);
	}

	matchingLines(text: string, fromLine: number): LineHits {
		const hay = this.haystack(text);
		const body = fromLine > 0 ? hay.text.slice(offsetOfLine(hay.text, fromLine)) : hay.text;
		if (!this.run(body)) return { lines: [], cutLines: hay.cut };
		const starts = lineStarts(body);
		const end = (line: number): number => (line + 1 < starts.length ? starts[line + 1]! - 1 : body.length);
		const lines: number[] = [];
		// Halve the line range while a half matches: RE2's fast boolean test finds the lines without
		// asking for match positions, which would take its slower capturing engines.
		const search = (lo: number, hi: number): void => {
			if (hi - lo <= SMALL_RANGE) {
				for (let i = lo; i < hi; i++) if (this.run(body.slice(starts[i], end(i)))) lines.push(i + fromLine);
				return;
			}
			const mid = (lo + hi) >> 1;
			if (this.run(body.slice(starts[lo], end(mid - 1)))) search(lo, mid);
			if (this.run(body.slice(starts[mid], end(hi - 1)))) search(mid, hi);
		};
		search(0, starts.length);
		return { lines, cutLines: hay.cut };
	}

	test(text: string): boolean {
		return this.run(this.haystack(text).text);
	}
}

/** Compile a user pattern into a bounded matcher, or say precisely why not. Never throws. */
export function compileMatcher(spec: MatchSpec): CompiledMatcher {
	const problem = patternProblem(spec.pattern, spec.regex);
	if (problem) return { ok: false, error: problem };
	if (!spec.regex) return { ok: true, matcher: new LiteralMatcher(spec) };
	let re: RE2JS;
	try {
		const flags = RE2JS.MULTILINE | (spec.caseSensitive ? 0 : RE2JS.CASE_INSENSITIVE);
		re = RE2JS.compile(RE2JS.translateRegExp(nfc(spec.pattern)), flags);
	} catch (error) {
		const message = error instanceof Error ? error.message.replace(/^error parsing regexp: /, '') : String(error);
		return { ok: false, error: `pattern: invalid regular expression (RE2 syntax): ${message}` };
	}
	if (re.programSize() > MAX_REGEX_PROGRAM) {
		return {
			ok: false,
			error: `pattern: too complex once compiled (${re.programSize()} instructions, limit ${MAX_REGEX_PROGRAM}); use fewer or smaller repetitions`,
		};
	}
	return { ok: true, matcher: new RegexMatcher(spec, re) };
}
