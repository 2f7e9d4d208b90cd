import type { LinkResult, NoteResult, QueryResult } from '../core/contract';
import { displayLines, isTruncationNote } from '../core/display';
import { contextListing } from '../core/text/context-groups';

/** How many limitations text output prints in full before it summarises the rest (`--verbose` prints all). */
const QUIET_LIMITATIONS = 3;

/** How text output lays out the footer: quiet (one-line summaries) unless `verbose`. */
export interface FooterOptions {
	verbose?: boolean;
	/** How to see the results past the limit, after "showing N" (the CLI: "raise --limit to see more"). */
	more?: string;
}

/** "15 files skipped (12 not UTF-8, 3 too large)": the count and the commonest reasons. */
function skippedSummary(skipped: QueryResult<unknown>['skipped']): string {
	const reasons = new Map<string, number>();
	for (const skip of skipped) reasons.set(skip.reason, (reasons.get(skip.reason) ?? 0) + 1);
	const common = [...reasons].sort((a, b) => b[1] - a[1]);
	const named = common.length <= 2 ? ` (${common.map(([reason, n]) => (common.length === 1 ? reason : `${n} ${reason}`)).join(', ')})` : '';
	return `${skipped.length} file${skipped.length === 1 ? '' : 's'} skipped${named.length <= 80 ? named : ''}: --verbose to list`;
}

/**
 * Lines of the envelope's footer: hints, skipped files and limitations, for humans. Quiet by
 * default — skipped files are one summary line and limitations past the first few are counted —
 * since the JSON keeps every one; `verbose` lists them all.
 */
export function renderFooter(result: QueryResult<unknown>, options: FooterOptions = {}): string[] {
	const lines: string[] = [];
	if (result.suggestions && result.suggestions.length > 0) lines.push('', ...result.suggestions.map((s) => `Hint: ${s}`));
	if (result.skipped.length > 0 && options.verbose === true) {
		lines.push('', `Skipped or partly read (${result.skipped.length}):`);
		for (const skip of result.skipped) lines.push(`  ${skip.path}: ${skip.reason}`);
	} else if (result.skipped.length > 0) {
		lines.push('', skippedSummary(result.skipped));
	}
	if (result.limitations.length > 0) {
		const all = options.verbose === true || result.limitations.length <= QUIET_LIMITATIONS;
		const shown = all ? result.limitations : result.limitations.slice(0, QUIET_LIMITATIONS - 1);
		lines.push('', 'Limitations:', ...shown.map((limitation) => `  - ${limitation}`));
		if (!all) lines.push(`  - ${result.limitations.length - shown.length} more: --verbose to list`);
	}
	return lines;
}

/** One note result as a few readable lines; grep results show each matching line with its context. */
function renderNote(note: NoteResult): string[] {
	const marker = note.source ? `  [${note.source}]` : '';
	const lines = [`${note.path}${marker}`, `  ${note.title}`];
	if (note.matches) {
		lines.push(...contextListing(note.matches, '  '));
	} else if (note.excerpt !== '') {
		lines.push(`  ${note.excerpt}`);
	}
	return lines;
}

/** One outgoing link as a line: `[[linkpath]]` (as written, body or frontmatter alike) → resolved path (or "unresolved"), and where it was found. */
function renderLink(link: LinkResult): string {
	const target = link.resolved ?? '(unresolved)';
	const times = link.count > 1 ? ` ×${link.count}` : '';
	return `[[${link.linkpath}]] → ${target}  [${link.source}]${times}`;
}

/** "s" when `n` is not one. */
function plural(n: number): string {
	return n === 1 ? '' : 's';
}

/**
 * The first line: how many matched and how many are shown. `links` names the note it resolved
 * and `backlinks` the note linked to, so a bare name that found another note than meant shows.
 */
function header(result: QueryResult<NoteResult> | QueryResult<LinkResult>, isLinks: boolean, more: string | undefined): string {
	const shown = result.results.length;
	const showing = shown < result.matched ? `; showing ${shown}${more === undefined ? '' : ` (${more})`}` : '';
	if (isLinks) {
		const from = typeof result.query.source === 'string' ? result.query.source : '';
		return `Links from ${from}: ${result.matched} link${plural(result.matched)}${showing}`;
	}
	const searched = ` (searched ${result.searched.files} note${plural(result.searched.files)})`;
	if (typeof result.query.target === 'string' && result.query.type === 'backlinks') return `${result.matched} note${plural(result.matched)} link to ${result.query.target}${searched}${showing}`;
	return `${result.matched} note${plural(result.matched)} match${result.matched === 1 ? 'es' : ''}${searched}${showing}`;
}

/** The readable listing printed without `--json`; `verbose` lists every skipped file and limitation. */
export function renderText(result: QueryResult<NoteResult> | QueryResult<LinkResult>, isLinks: boolean, options: FooterOptions = {}): string {
	const lines: string[] = [header(result, isLinks, options.more)];
	const shown = result.results.length;
	if (shown > 0) lines.push('');
	for (const item of result.results) {
		if (isLinks) lines.push(renderLink(item as LinkResult));
		else lines.push(...renderNote(item as NoteResult), '');
	}
	if (!isLinks && shown > 0) lines.pop();
	lines.push(...renderFooter({ ...result, limitations: result.limitations.filter((l) => !isTruncationNote(l)) }, options));
	return displayLines(lines);
}

/** What the CLI's text says to see the results past the limit. */
export const MORE = 'raise --limit to see more';
