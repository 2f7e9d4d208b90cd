import { dateFieldsOf, noteDate } from '../note-date';
import type { LineMatch, LinkSource, NoteResult, QueryResult, SkippedFile, Status } from '../contract';
import { bodyOf, excerptOf, frontmatterSkipReason, titleOf, withoutTitleHeading } from '../note-info';
import { boundEchoes } from '../frontmatter-echo';
import { byAuthority, type SortKey } from '../order';
import { folderOf } from '../paths';
import type { NoteSource } from '../port';
import type { EngineSettings } from '../settings';
import type { QueryContext } from './context';
import type { RawLines } from './note-matches';

/** A note a query matched, before it is shaped into a `NoteResult`. */
export interface Hit {
	path: string;
	source?: LinkSource;
	matches?: LineMatch[];
	/** The matching lines left as the note's bytes, instead of `matches` (a streamed text listing; see GrepStop). */
	raw?: RawLines;
}

/** What a query module hands back: its hits plus anything the report should say. */
export interface QueryOutcome {
	hits: Hit[];
	limitations?: string[];
	suggestions?: string[];
	/** Whether notes with unreadable frontmatter could have changed the answer. */
	dependsOnFrontmatter: boolean;
	/** The query stopped at its limit and more notes match (not counted): `matched` is a lower bound. */
	more?: boolean;
}

/** Files the query could not fully read: not indexed at all, or frontmatter unparsable. */
export function skippedFiles(ctx: QueryContext, dependsOnFrontmatter: boolean): SkippedFile[] {
	// The whole scope's lists are kept by a host that reuses them (every note is asked, per query, otherwise).
	const memo = ctx.scope.folders.length === 0 ? ctx.reuse?.skipped : undefined;
	const kept = memo?.get(dependsOnFrontmatter);
	if (kept !== undefined) return [...kept];
	const skipped: SkippedFile[] = [];
	for (const path of ctx.scope.notes) {
		const reason = ctx.source.getSkipReason(path);
		if (reason !== null) {
			skipped.push({ path, reason: `not searched: ${reason}` });
			continue;
		}
		const yamlError = ctx.source.getFrontmatterError(path);
		if (yamlError !== null) {
			skipped.push({ path, reason: frontmatterSkipReason(yamlError) });
		}
	}
	memo?.set(dependsOnFrontmatter, [...skipped]);
	return skipped;
}

/** Shape one hit into the contract's note result. */
export async function toNoteResult(ctx: QueryContext, hit: Hit): Promise<NoteResult> {
	const meta = ctx.source.getMetadata(hit.path);
	const skip = ctx.source.getSkipReason(hit.path);
	const excerpt =
		hit.matches && hit.matches.length > 0
			? [...hit.matches[0]!.before, hit.matches[0]!.text, ...hit.matches[0]!.after].join('\n')
			: skip === null
				? excerptOf(
						withoutTitleHeading(bodyOf(await ctx.source.read(hit.path), meta)),
						ctx.settings.excerptChars,
					)
				: '';
	const result: NoteResult = {
		path: hit.path,
		title: titleOf(hit.path, meta),
		folder: folderOf(hit.path),
		frontmatter: meta?.frontmatter ?? {},
		...dateFieldsOf(noteDate(meta?.frontmatter, ctx.source.getMtime(hit.path), ctx.settings.dateFields)),
		excerpt,
		forward_links: ctx.graph.forwardNames(hit.path),
		backlinks: ctx.graph.backlinks(hit.path),
	};
	if (hit.source) result.source = hit.source;
	if (hit.matches) result.matches = hit.matches;
	return result;
}

/** The sort key of a path under the settings' order: the path, newest modification first, or the title (case-folded). */
export function sortKeyOf(ctx: Pick<QueryContext, 'source' | 'settings'>): (path: string) => SortKey {
	switch (ctx.settings.sort) {
		case 'mtime':
			return (path) => ctx.source.getMtime(path) ?? 0;
		case 'title':
			return (path) => titleOf(path, ctx.source.getMetadata(path)).toLowerCase();
		default:
			return (path) => path;
	}
}

/** `notes` in the order query results are listed: authority tiers when set, then the sort order. */
export function resultOrder(source: NoteSource, settings: EngineSettings, notes: readonly string[]): string[] {
	return byAuthority(notes, (path) => path, settings.authorityOrder, sortKeyOf({ source, settings }));
}

/** What a limitation cut at the limit says to see more, in the CLI's terms (the MCP tools replace exactly this). */
export const RAISE_LIMIT = '(raise --limit)';

/** Order hits (authority tiers when set, then the sort order), cap them, shape them, and wrap the envelope. */
export async function finish(
	ctx: QueryContext,
	query: Record<string, unknown>,
	limit: number,
	outcome: QueryOutcome,
): Promise<QueryResult> {
	const ordered = byAuthority(outcome.hits, (hit) => hit.path, ctx.settings.authorityOrder, sortKeyOf(ctx));
	const kept = ordered.slice(0, limit);
	const limitations = [...ctx.scope.exclusions, ...(outcome.limitations ?? [])];
	if (ordered.length > kept.length)
		limitations.push(`Truncated to ${kept.length} of ${ordered.length} matches ${RAISE_LIMIT}`);
	if (outcome.more === true)
		limitations.push(
			`Stopped at the first ${kept.length} matching notes in result order; more notes match (not counted)`,
		);
	const skipped = skippedFiles(ctx, outcome.dependsOnFrontmatter);
	// Any skipped note makes the answer partial, whichever command asked (tag, grep and search agree).
	const lossy = skipped.length > 0;
	const status: Status = lossy ? 'partial' : 'success';
	const shaped: NoteResult[] = [];
	for (const hit of kept) shaped.push(await toNoteResult(ctx, hit));
	const results = boundEchoes(shaped, limitations);
	const envelope: QueryResult = {
		status,
		query,
		searched: {
			files: ctx.scope.notes.length,
			folders: ctx.scope.folders.length > 0 ? [...ctx.scope.folders] : ['(whole vault)'],
		},
		matched: ordered.length,
		results,
		skipped,
		limitations,
	};
	if (outcome.suggestions && outcome.suggestions.length > 0) envelope.suggestions = outcome.suggestions;
	if (outcome.more === true) envelope.more = true;
	return envelope;
}

/** The envelope for a query that could not run: `failed`, with a message naming the bad parameter (built in core/failure.ts). */
export { failedResult as failed } from '../failure';
