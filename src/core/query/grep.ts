import type { LineMatch } from '../contract';
import { bodyStart, bodyStartLine } from '../note-info';
import { findFrontmatter } from '../text/frontmatter-block';
import { lineStarts, offsetOfLine } from '../text/lines';
import { lineEndAfter, listScanned, type Listed } from '../text/line-scan';
import { compileMatcher, type CompiledMatcher, type LineHits, type TextMatcher } from '../text/matcher';
import type { NoteBytes } from '../port';
import type { TrigramIndex } from '../text/trigram';
import { MAX_REGEX_LINE_CHARS } from '../text/pattern';
import type { QueryContext } from './context';
import type { Hit, QueryOutcome } from './envelope';
import type { NoteMatches, RawLines } from './note-matches';
import type { GrepQuery } from './types';

/** At most this many matching lines are reported per note; a limitation says when more existed. */
const MAX_LINES_PER_NOTE = 100;

/** The bounded matcher a grep query runs: the literal itself (no regex built from it), or the regex on RE2. */
export function grepMatcher(query: GrepQuery): CompiledMatcher {
	return compileMatcher({
		pattern: query.pattern,
		regex: query.regex === true,
		caseSensitive: query.caseSensitive === true,
	});
}

/** A note's text, or its bytes (NoteBytes) of which only the lines shown are decoded. */
interface LinesOf {
	/** The string whose line starts are counted (the text, or the bytes as Latin-1). */
	readonly lines: string;
	/** The text of `start` to `end` of `lines`. */
	slice(start: number, end: number): string;
}

/** The text of lines `from` to `to` (exclusive) of `of`, without their line ends, from one slice. */
function linesBetween(of: LinesOf, starts: readonly number[], from: number, to: number): string[] {
	const end = to < starts.length ? starts[to]! - 1 : of.lines.length;
	const lines = of.slice(starts[from]!, end).split('\n');
	for (let i = 0; i < lines.length; i++) if (lines[i]!.endsWith('\r')) lines[i] = lines[i]!.slice(0, -1);
	return lines;
}

/**
 * Every matching line of one note's body (lines from `minLine` on) with `context` lines either side; line numbers are
 * 1-based file lines so an editor can jump there. The matcher compares normalised text; the lines
 * shown are the note's own.
 */
export function matchLines(text: string, minLine: number, matcher: TextMatcher, context: number): NoteMatches {
	return linesAround(
		{ lines: text, slice: (start, end) => text.slice(start, end) },
		matcher.matchingLines(text, minLine),
		minLine,
		context,
	);
}

/**
 * `matchLines` of a note given as bytes, decoding only the lines shown, or null when the matcher
 * cannot match this note on bytes (then match its text).
 */
export function matchLinesOfBytes(
	bytes: NoteBytes,
	minLine: number,
	matcher: TextMatcher,
	context: number,
	raw = false,
): NoteMatches | null {
	const hits = matcher.onBytes?.(bytes, minLine, raw ? context : 0) ?? null;
	if (hits === null) return null;
	if (raw) return rawLinesAround(bytes, hits, minLine, context);
	return linesAround({ lines: bytes.latin1, slice: (start, end) => bytes.text(start, end) }, hits, minLine, context);
}

/**
 * `linesAround` as RawLines: the same stretches of lines (a match's context merged with the next
 * match's where they overlap or touch), numbered and marked as the listing prints them, but
 * left as the note's bytes. A note with no CR but those of CRLF line ends (see LiteralMatcher).
 * Each stretch is found from its match's line start (`hits.starts`) with a few searches for line
 * ends either side: a table of every line start of every note was a tenth of a full listing.
 */
function rawLinesAround(note: NoteBytes, hits: LineHits, minLine: number, context: number): NoteMatches {
	const total = hits.lines.length;
	if (total === 0) return { matches: [], shown: 0, total: 0, cutLines: hits.cutLines };
	const found = { matches: [], shown: Math.min(total, MAX_LINES_PER_NOTE), total, cutLines: hits.cutLines };
	// Found by the WebAssembly scan: the listing is written there too, the line list made only if it is asked for.
	const listed = hits.ends !== undefined ? listScanned(context, minLine) : null;
	if (listed === null) return { ...found, raw: { note, lines: rawLineList(note, hits, minLine, context) } };
	return { ...found, raw: new ListedLines(note, listed, () => rawLineList(note, hits, minLine, context)) };
}

/**
 * RawLines with their listing written (`listed`) and their line list made when first asked for (a
 * class: an object literal with a getter was made on V8's slow path, ~15 µs per note).
 */
class ListedLines implements RawLines {
	private made: number[] | undefined;

	constructor(
		readonly note: NoteBytes,
		readonly listed: Listed,
		private readonly make: () => number[],
	) {}

	get lines(): number[] {
		this.made ??= this.make();
		return this.made;
	}
}

/** The line list of `rawLinesAround` (see RawLines). */
function rawLineList(note: NoteBytes, hits: LineHits, minLine: number, context: number): number[] {
	const { bytes } = note;
	const matchStarts = hits.starts ?? hits.lines.map((line) => offsetOfLine(note.latin1, line));
	// Line ends from the WebAssembly scan's copy of the note where it answered (`ends`), else from its Latin-1.
	const lineEnd = hits.ends !== undefined ? lineEndAfter : (from: number) => note.latin1.indexOf('\n', from);
	const shown = hits.lines.length > MAX_LINES_PER_NOTE ? hits.lines.slice(0, MAX_LINES_PER_NOTE) : hits.lines;
	const lines: number[] = [];
	/** The line after the last one written, and where it starts. */
	let to = -1;
	let toStart = 0;
	/** Past the last line: no line after it. */
	let ended = false;
	// The next shown match at or after the line written: a match inside an earlier one's context is still marked.
	let next = 0;
	for (let k = 0; k < shown.length; k++) {
		// Past the last line every later match has been written (and marked) already.
		if (ended) break;
		const match = shown[k]!;
		let line = Math.max(minLine, match - context, to);
		if (k > 0 && line > to) lines.push(-1);
		// The start of the first line of this stretch: the line after the last written, or back from the match's line.
		let start = toStart;
		if (line !== to) {
			start = hits.firstStarts?.[k] ?? matchStarts[k]!;
			if (hits.firstStarts === undefined)
				for (let back = match; back > line; back--)
					start = start <= 1 ? 0 : note.latin1.lastIndexOf('\n', start - 2) + 1;
		}
		// The match line's end, where the scan found it (the note's length: no line end after it).
		const matchEnd = hits.ends?.[k];
		for (const last = match + context; line <= last; line++) {
			const newline =
				line === match && matchEnd !== undefined
					? matchEnd < bytes.length
						? matchEnd
						: -1
					: lineEnd(start, bytes.length);
			let end = newline < 0 ? bytes.length : newline;
			if (end > start && bytes[end - 1] === 13) end--;
			while (next < shown.length && shown[next]! < line) next++;
			lines.push(line + 1, shown[next] === line ? 1 : 0, start, end);
			if (newline < 0) {
				ended = true;
				line++;
				break;
			}
			start = newline + 1;
		}
		if (line > to) {
			to = line;
			toStart = start;
		}
	}
	return lines;
}

/** The matching lines `hits` of a note with their context lines (each stretch of lines shown taken in one slice). */
function linesAround(of: LinesOf, hits: LineHits, minLine: number, context: number): NoteMatches {
	if (hits.lines.length === 0) return { matches: [], shown: 0, total: 0, cutLines: hits.cutLines };
	const starts = lineStarts(of.lines);
	const lastLine = starts.length - 1;
	const shown = hits.lines.slice(0, MAX_LINES_PER_NOTE);
	const matches: LineMatch[] = [];
	let stretch: string[] = [];
	let stretchFrom = 0;
	let stretchTo = 0;
	for (let k = 0; k < shown.length; k++) {
		const index = shown[k]!;
		const first = Math.max(minLine, index - context);
		const last = Math.min(lastLine, index + context);
		if (k === 0 || first >= stretchTo) {
			// A new stretch: this match's lines and those of the next matches that overlap or touch them.
			let to = last + 1;
			for (let j = k + 1; j < shown.length && Math.max(minLine, shown[j]! - context) <= to; j++)
				to = Math.min(lastLine, shown[j]! + context) + 1;
			stretch = linesBetween(of, starts, first, to);
			stretchFrom = first;
			stretchTo = to;
		}
		matches.push({
			line: index + 1,
			text: stretch[index - stretchFrom]!,
			before: stretch.slice(first - stretchFrom, index - stretchFrom),
			after: stretch.slice(index + 1 - stretchFrom, last + 1 - stretchFrom),
		});
	}
	return { matches, shown: matches.length, total: hits.lines.length, cutLines: hits.cutLines };
}

/** The first body line of a note (the closing `---` line is not body: context and matches start after it). */
function minLineOf(ctx: QueryContext, path: string): number {
	const meta = ctx.source.getMetadata(path);
	return bodyStart(meta) > 0 ? bodyStartLine(meta) + 1 : 0;
}

/** Bytes of a note's head its frontmatter block is looked for in first (most notes' whole block). */
const HEAD_BYTES = 1024;

/**
 * `minLineOf` from a note's bytes (as Latin-1), without its saved metadata: the parser's body
 * starts after the frontmatter block it finds in the same lines (a note with a lone CR, whose
 * lines the parser counts otherwise, is matched on its text). Decoding the metadata for it — and
 * parsing a note without frontmatter again, since the snapshot keeps no sections — was an eighth
 * of a full answer's time.
 */
function bodyLineOf(note: NoteBytes): number {
	const { bytes } = note;
	if (bytes[0] !== 0x2d || bytes[1] !== 0x2d || bytes[2] !== 0x2d) return 0;
	// Looked for in the note's head first, cut after a line end: a block closed there is the note's.
	const head = bytes.length <= HEAD_BYTES ? bytes.length : bytes.lastIndexOf(10, HEAD_BYTES - 1) + 1;
	const block =
		findFrontmatter(note.latin1Of(0, head)) ?? (head < bytes.length ? findFrontmatter(note.latin1) : null);
	return block === null ? 0 : block.closeLine + 1;
}

/**
 * Where a grep may stop early: `order` is every note of the whole scope in the order results are
 * sorted (so the first matches found are the first results), `limit` the results wanted.
 */
export interface GrepStop {
	order: readonly string[];
	limit: number;
	/** A note matched on its bytes is handed over with its lines as bytes (`Hit.raw`, for a text listing), not decoded. */
	raw?: boolean;
}

/**
 * Reads the notes in scope and hands each matching one to `take` as it is found (the hit is not
 * kept here). With a trigram index only the notes it names as candidates are read; the matcher
 * verifies each, so the answer is the full scan's. With `stop`, notes are read in result order and
 * the scan ends at the first match past `limit`, returning `more`. With `asRaw` (by default
 * `stop.raw`), a note matched on its bytes is handed over with its lines as bytes (`Hit.raw`).
 */
export async function scanGrep(
	ctx: QueryContext,
	matcher: TextMatcher,
	trigrams: TrigramIndex | null | undefined,
	stop: GrepStop | undefined,
	take: (hit: Hit) => Promise<void> | void,
	limitations: string[],
	asRaw = stop?.raw === true,
): Promise<{ found: number; more: boolean }> {
	let found = 0;
	const mayHold = trigrams ? trigrams.mayHold(matcher.trigrams) : null;
	// A folder-narrowed scope walks the whole scope's order and keeps its own notes.
	const narrowed = stop !== undefined && ctx.scope.folders.length > 0 ? new Set(ctx.scope.notes) : null;
	for (const path of stop?.order ?? ctx.scope.notes) {
		if (narrowed !== null && !narrowed.has(path)) continue;
		// A note the index does not know (not yet indexed) is scanned, never skipped.
		if (mayHold !== null && !mayHold(path)) continue;
		if (ctx.source.getSkipReason(path) !== null) continue;
		// An ASCII literal is matched on the note's bytes where the source has them: only the lines shown are decoded.
		const bytes = matcher.onBytes !== null ? (ctx.source.readBytes?.(path) ?? null) : null;
		const { matches, shown, total, cutLines, raw } =
			(bytes !== null
				? matchLinesOfBytes(bytes, bodyLineOf(bytes), matcher, ctx.settings.contextLines, asRaw)
				: null) ??
			matchLines(await ctx.source.read(path), minLineOf(ctx, path), matcher, ctx.settings.contextLines);
		if (cutLines > 0)
			limitations.push(
				`${path}: ${cutLines} line(s) longer than ${MAX_REGEX_LINE_CHARS} characters were searched in their first ${MAX_REGEX_LINE_CHARS} only`,
			);
		if (total === 0) continue;
		if (stop !== undefined && found === stop.limit) return { found, more: true };
		if (total > shown) limitations.push(`${path}: showing ${shown} of ${total} matching lines`);
		found++;
		await take(raw === undefined ? { path, matches } : { path, raw });
	}
	return { found, more: false };
}

/**
 * Full-text search over the bodies of the notes in scope (frontmatter excluded), every hit kept
 * (see `scanGrep`). With `stop` a word in most notes costs a few reads, not the whole vault, and
 * `more` says that further notes match (they are then not counted).
 */
export async function grepQuery(
	ctx: QueryContext,
	matcher: TextMatcher,
	trigrams?: TrigramIndex | null,
	stop?: GrepStop,
): Promise<QueryOutcome> {
	const hits: Hit[] = [];
	const limitations: string[] = [];
	const { more } = await scanGrep(ctx, matcher, trigrams, stop, (hit) => void hits.push(hit), limitations);
	return { hits, limitations, dependsOnFrontmatter: false, ...(more ? { more: true } : {}) };
}
