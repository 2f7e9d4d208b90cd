import type { LineMatch } from '../contract';
import { bodyStart, bodyStartLine } from '../note-info';
import { compilePattern, escapeRegex } from '../regex-guard';
import type { QueryContext } from './context';
import type { Hit, QueryOutcome } from './envelope';
import type { GrepQuery } from './types';

/** At most this many matching lines are reported per note; a limitation says when more existed. */
const MAX_LINES_PER_NOTE = 100;

/** The regex a grep query runs: the pattern itself, or the escaped literal for substring search. */
export function grepRegex(query: GrepQuery): { ok: true; regex: RegExp } | { ok: false; error: string } {
	if (query.pattern === '') return { ok: false, error: 'pattern: empty pattern' };
	return query.regex ? compilePattern(query.pattern, query.caseSensitive === true) : { ok: true, regex: new RegExp(escapeRegex(query.pattern), query.caseSensitive ? 'g' : 'gi') };
}

/** Start offsets of every line in `text`. */
function lineStarts(text: string): number[] {
	const starts = [0];
	for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
	return starts;
}

/** The index of the line containing `offset` (binary search over line starts). */
function lineIndexAt(starts: number[], offset: number): number {
	let lo = 0;
	let hi = starts.length - 1;
	while (lo < hi) {
		const mid = (lo + hi + 1) >> 1;
		if (starts[mid] <= offset) lo = mid;
		else hi = mid - 1;
	}
	return lo;
}

/**
 * Every matching line of one note's body (lines from `minLine` on) with `context` lines either side; line numbers are
 * 1-based file lines so an editor can jump there. The whole body is scanned in one pass (no
 * per-line split) and lines are only materialised for notes that match.
 */
export function matchLines(text: string, start: number, minLine: number, regex: RegExp, context: number): { matches: LineMatch[]; total: number } {
	regex.lastIndex = start;
	let found = regex.exec(text);
	if (found === null) return { matches: [], total: 0 };
	const starts = lineStarts(text);
	const lineText = (index: number): string => text.slice(starts[index], index + 1 < starts.length ? starts[index + 1] - 1 : text.length).replace(/\r$/, '');
	const lastLine = starts.length - 1;
	const matches: LineMatch[] = [];
	let previousLine = -1;
	let total = 0;
	while (found !== null) {
		const index = lineIndexAt(starts, found.index);
		if (index !== previousLine && index >= minLine) {
			total++;
			previousLine = index;
			if (matches.length < MAX_LINES_PER_NOTE) {
				const from = Math.max(minLine, index - context);
				const to = Math.min(lastLine, index + context);
				const before: string[] = [];
				const after: string[] = [];
				for (let i = from; i < index; i++) before.push(lineText(i));
				for (let i = index + 1; i <= to; i++) after.push(lineText(i));
				matches.push({ line: index + 1, text: lineText(index), before, after });
			}
		}
		// Jump to the next line: one entry per line, and zero-length matches cannot loop.
		regex.lastIndex = index + 1 < starts.length ? starts[index + 1] : text.length + 1;
		found = regex.lastIndex > text.length ? null : regex.exec(text);
	}
	return { matches, total };
}

/** Full-text search over the bodies of the notes in scope (frontmatter excluded). */
export async function grepQuery(ctx: QueryContext, query: GrepQuery, regex: RegExp): Promise<QueryOutcome> {
	const hits: Hit[] = [];
	const limitations: string[] = [];
	for (const path of ctx.scope.notes) {
		if (ctx.source.getSkipReason(path) !== null) continue;
		const meta = ctx.source.getMetadata(path);
		const text = await ctx.source.read(path);
		const start = bodyStart(meta);
		// The closing `---` line is not body: context and matches start on the line after it.
		const minLine = start > 0 ? bodyStartLine(meta) + 1 : 0;
		const { matches, total } = matchLines(text, start, minLine, regex, ctx.settings.contextLines);
		if (total === 0) continue;
		if (total > matches.length) limitations.push(`${path}: showing ${matches.length} of ${total} matching lines`);
		hits.push({ path, matches });
	}
	return { hits, limitations, dependsOnFrontmatter: false };
}
