import type { LineMatch } from '../contract';
import { bodyStart, bodyStartLine } from '../note-info';
import { lineStarts } from '../text/lines';
import { compileMatcher, type CompiledMatcher, type TextMatcher } from '../text/matcher';
import type { TrigramIndex } from '../text/trigram';
import { MAX_REGEX_LINE_CHARS } from '../text/pattern';
import type { QueryContext } from './context';
import type { Hit, QueryOutcome } from './envelope';
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

/** The text of line `index` of `text`, without its line end. */
function lineAt(text: string, starts: readonly number[], index: number): string {
	return text
		.slice(starts[index], index + 1 < starts.length ? starts[index + 1]! - 1 : text.length)
		.replace(/\r$/, '');
}

/**
 * Every matching line of one note's body (lines from `minLine` on) with `context` lines either side; line numbers are
 * 1-based file lines so an editor can jump there. The matcher compares normalised text; the lines
 * shown are the note's own.
 */
export function matchLines(
	text: string,
	minLine: number,
	matcher: TextMatcher,
	context: number,
): { matches: LineMatch[]; total: number; cutLines: number } {
	const hits = matcher.matchingLines(text, minLine);
	if (hits.lines.length === 0) return { matches: [], total: 0, cutLines: hits.cutLines };
	const starts = lineStarts(text);
	const lastLine = starts.length - 1;
	const matches: LineMatch[] = [];
	for (const index of hits.lines.slice(0, MAX_LINES_PER_NOTE)) {
		const before: string[] = [];
		const after: string[] = [];
		for (let i = Math.max(minLine, index - context); i < index; i++) before.push(lineAt(text, starts, i));
		for (let i = index + 1; i <= Math.min(lastLine, index + context); i++) after.push(lineAt(text, starts, i));
		matches.push({ line: index + 1, text: lineAt(text, starts, index), before, after });
	}
	return { matches, total: hits.lines.length, cutLines: hits.cutLines };
}

/**
 * Where a grep may stop early: `order` is every note of the whole scope in the order results are
 * sorted (so the first matches found are the first results), `limit` the results wanted.
 */
export interface GrepStop {
	order: readonly string[];
	limit: number;
}

/**
 * Reads the notes in scope and hands each matching one to `take` as it is found (the hit is not
 * kept here). With a trigram index only the notes it names as candidates are read; the matcher
 * verifies each, so the answer is the full scan's. With `stop`, notes are read in result order and
 * the scan ends at the first match past `limit`, returning `more`.
 */
export async function scanGrep(
	ctx: QueryContext,
	matcher: TextMatcher,
	trigrams: TrigramIndex | null | undefined,
	stop: GrepStop | undefined,
	take: (hit: Hit) => Promise<void> | void,
	limitations: string[],
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
		const meta = ctx.source.getMetadata(path);
		const text = await ctx.source.read(path);
		// The closing `---` line is not body: context and matches start on the line after it.
		const minLine = bodyStart(meta) > 0 ? bodyStartLine(meta) + 1 : 0;
		const { matches, total, cutLines } = matchLines(text, minLine, matcher, ctx.settings.contextLines);
		if (cutLines > 0)
			limitations.push(
				`${path}: ${cutLines} line(s) longer than ${MAX_REGEX_LINE_CHARS} characters were searched in their first ${MAX_REGEX_LINE_CHARS} only`,
			);
		if (total === 0) continue;
		if (stop !== undefined && found === stop.limit) return { found, more: true };
		if (total > matches.length) limitations.push(`${path}: showing ${matches.length} of ${total} matching lines`);
		found++;
		await take({ path, matches });
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
