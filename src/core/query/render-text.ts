/** The readable listing of a structural query or a reader call, the same in the CLI, the MCP server and Obsidian's CLI. */
import type { LinkResult, NoteResult, QueryResult } from '../contract';
import { displayLines, isTruncationNote } from '../display';
import { contextListing } from '../text/context-groups';
import { excludedCount } from '../scope';

/** How many limitations text output prints in full before it summarises the rest (`--verbose` prints all). */
const QUIET_LIMITATIONS = 3;

/** How text output lays out the footer: quiet (one-line summaries) unless `verbose`. */
export interface FooterOptions {
	verbose?: boolean;
	/** How to see the results past the limit, after "showing N" (the CLI: "raise --limit to see more"). */
	more?: string;
}

/** "15 files skipped or partly read (12 no frontmatter, 3 too large)": the count and, when short, the reasons. */
function skippedSummary(skipped: QueryResult<unknown>['skipped']): string {
	const reasons = new Map<string, number>();
	// The reason's gist ("frontmatter not parsed"), without the line and detail --verbose gives.
	for (const skip of skipped) {
		const gist = skip.reason.split(/[(;:]/)[0]!.trim();
		reasons.set(gist, (reasons.get(gist) ?? 0) + 1);
	}
	const common = [...reasons].sort((a, b) => b[1] - a[1]);
	const named =
		common.length <= 2
			? ` (${common.map(([reason, n]) => (common.length === 1 ? reason : `${n} ${reason}`)).join(', ')})`
			: '';
	return `${skipped.length} file${skipped.length === 1 ? '' : 's'} skipped or partly read${named.length <= 60 ? named : ''}: --verbose to list`;
}

/** The limitations quiet output prints: the notes the scope's rules kept out summed in one line, the first few others, and a count of the rest. */
function quietLimitations(limitations: readonly string[]): string[] {
	let excluded = 0;
	const others: string[] = [];
	for (const limitation of limitations) {
		const count = excludedCount(limitation);
		if (count === null) others.push(limitation);
		else excluded += count;
	}
	const shown = others.length <= QUIET_LIMITATIONS ? others : others.slice(0, QUIET_LIMITATIONS - 1);
	const lines = shown.map((limitation) => `  - ${limitation}`);
	if (shown.length < others.length) lines.push(`  - ${others.length - shown.length} more: --verbose to list`);
	if (excluded > 0)
		lines.push(
			`  - Not searched: ${excluded} note${excluded === 1 ? '' : 's'} in excluded folders or files (--verbose to list)`,
		);
	return lines;
}

/**
 * Lines of the envelope's footer: hints, skipped files and limitations, for humans. Quiet by
 * default — skipped files and the notes kept out of scope are one summary line each, and
 * limitations past the first few are counted — since the JSON keeps every one; `verbose` lists
 * them all.
 */
export function renderFooter(result: QueryResult<unknown>, options: FooterOptions = {}): string[] {
	const lines: string[] = [];
	const verbose = options.verbose === true;
	if (result.suggestions && result.suggestions.length > 0)
		lines.push('', ...result.suggestions.map((s) => `Hint: ${s}`));
	if (result.skipped.length > 0 && verbose) {
		lines.push('', `Skipped or partly read (${result.skipped.length}):`);
		for (const skip of result.skipped) lines.push(`  ${skip.path}: ${skip.reason}`);
	} else if (result.skipped.length > 0) {
		lines.push('', skippedSummary(result.skipped));
	}
	if (result.limitations.length > 0)
		lines.push(
			'',
			'Limitations:',
			...(verbose
				? result.limitations.map((limitation) => `  - ${limitation}`)
				: quietLimitations(result.limitations)),
		);
	return lines;
}

/** One note result as a few readable lines; grep results show each matching line with its context. */
export function renderNote(
	note: Pick<NoteResult, 'path' | 'title' | 'matches' | 'source'> & { excerpt?: string },
): string[] {
	const marker = note.source ? `  [${note.source}]` : '';
	const lines = [`${note.path}${marker}`, `  ${note.title}`];
	if (note.matches) {
		lines.push(...contextListing(note.matches, '  '));
	} else if (note.excerpt !== undefined && note.excerpt !== '') {
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
function header(
	result: QueryResult<NoteResult> | QueryResult<LinkResult>,
	isLinks: boolean,
	more: string | undefined,
	shown = result.results.length,
): string {
	const showing = shown < result.matched ? `; showing ${shown}${more === undefined ? '' : ` (${more})`}` : '';
	if (isLinks) {
		const from = typeof result.query.source === 'string' ? result.query.source : '';
		return `Links from ${from}: ${result.matched} link${plural(result.matched)}${showing}`;
	}
	const searched = ` (searched ${result.searched.files} note${plural(result.searched.files)})`;
	if (typeof result.query.target === 'string' && result.query.type === 'backlinks')
		return `${result.matched} note${plural(result.matched)} link to ${result.query.target}${searched}${showing}`;
	// A grep that stopped at its limit knows only that more match (`more`, MCP): "20+ notes match".
	if (result.more === true) return `${result.matched}+ notes match (stopped at the limit; more notes match)`;
	return `${result.matched} note${plural(result.matched)} match${result.matched === 1 ? 'es' : ''}${searched}${showing}`;
}

/**
 * The lines that end a streamed listing (its `shown` notes already written): the first line of
 * `renderText`, saying how many matched, then the footer.
 */
export function renderSummary(
	result: QueryResult<NoteResult>,
	options: FooterOptions = {},
	shown = result.matched,
): string {
	return displayLines([
		header(result, false, options.more, shown),
		...renderFooter({ ...result, limitations: result.limitations.filter((l) => !isTruncationNote(l)) }, options),
	]);
}

/** The readable listing printed without `--json`; `verbose` lists every skipped file and limitation. */
export function renderText(
	result: QueryResult<NoteResult> | QueryResult<LinkResult>,
	isLinks: boolean,
	options: FooterOptions = {},
): string {
	const lines: string[] = [header(result, isLinks, options.more)];
	const shown = result.results.length;
	if (shown > 0) lines.push('');
	for (const item of result.results) {
		if (isLinks) lines.push(renderLink(item as LinkResult));
		else lines.push(...renderNote(item as NoteResult), '');
	}
	if (!isLinks && shown > 0) lines.pop();
	lines.push(
		...renderFooter({ ...result, limitations: result.limitations.filter((l) => !isTruncationNote(l)) }, options),
	);
	return displayLines(lines);
}
