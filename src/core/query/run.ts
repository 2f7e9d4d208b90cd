import type { LinkResult, NoteResult, QueryResult } from '../contract';
import { describeNoteRef, findNote } from '../note-ref';
import type { NoteSource } from '../port';
import { ScopeError } from '../scope';
import type { EngineSettings } from '../settings';
import { backlinksQuery, linksQuery } from './backlinks';
import { makeContext, type QueryContext, type QueryReuse } from './context';
import { failed, finish, RAISE_LIMIT, skippedFiles } from './envelope';
import type { TrigramIndex } from '../text/trigram';
import { grepMatcher, grepQuery } from './grep';
import { propQuery } from './prop';
import { tagQuery, validateTag, normalizeTag } from './tag';
import type { StructuredQuery } from './types';

/** The result of any structural query: note results, or link results for `links`. */
export type StructuredResult = QueryResult<NoteResult> | QueryResult<LinkResult>;

/** The query as the envelope echoes it: normalized, with defaults filled in. */
export function normalized(query: StructuredQuery, limit: number): Record<string, unknown> {
	const echo: Record<string, unknown> = { ...query, limit };
	if (query.type === 'tag') echo.tag = `#${normalizeTag(query.tag)}`;
	if (query.type === 'prop') echo.match = query.value === undefined ? 'present' : (query.match ?? 'equals');
	if (query.type === 'grep') {
		echo.regex = query.regex === true;
		echo.caseSensitive = query.caseSensitive === true;
	}
	if (!query.folders || query.folders.length === 0) delete echo.folders;
	return echo;
}

/** A validation error naming the bad parameter, or null when the query can run. */
export function validate(query: StructuredQuery, limit: number): string | null {
	if (!Number.isInteger(limit) || limit < 1) return `limit: must be a positive whole number, got ${String(limit)}`;
	switch (query.type) {
		case 'tag':
			return validateTag(query);
		case 'prop':
			if (query.key.trim() === '') return 'key: empty property name';
			if (query.match === 'contains' && (query.value ?? '') === '') return 'value: "contains" needs a value';
			return null;
		case 'backlinks':
			return query.target.trim() === '' ? 'target: empty note name' : null;
		case 'links':
			return query.source.trim() === '' ? 'source: empty note name' : null;
		case 'grep': {
			const compiled = grepMatcher(query);
			return compiled.ok ? null : compiled.error;
		}
	}
}

/** Resolve the note a backlinks/links query is about, or produce the failure. */
function subjectNote(
	ctx: QueryContext,
	name: string,
	parameter: string,
): { path: string } | { error: string; suggestions: string[] } {
	const ref = findNote(ctx.source, name);
	if (ref.kind === 'found') return { path: ref.path };
	return {
		error: describeNoteRef(ref, parameter),
		suggestions: ref.kind === 'unknown' ? ref.suggestions : ref.candidates,
	};
}

/**
 * Run one structural query against a note source. Never throws for bad input: an invalid query
 * is a `failed` envelope naming the parameter; "nothing matched" is a `success` with no results.
 * `reuse` (context.ts): kept between queries on an unchanging source; with its `order` (every note
 * of the whole scope in result order, `resultOrder`) a grep stops at the first match past its
 * limit instead of reading every note (the answer then says `more`).
 */
export async function runQuery(
	source: NoteSource,
	query: StructuredQuery,
	settings: EngineSettings,
	trigrams?: TrigramIndex | null,
	reuse?: QueryReuse,
): Promise<StructuredResult> {
	const order = reuse?.order;
	const limit = query.limit ?? settings.defaultLimit;
	const echo = normalized(query, limit);
	const invalid = validate(query, limit);
	if (invalid !== null) return failed(echo, invalid);
	let ctx: QueryContext;
	try {
		ctx = makeContext(source, settings, query.folders, reuse);
	} catch (error) {
		if (error instanceof ScopeError) return failed(echo, error.message);
		throw error;
	}
	switch (query.type) {
		case 'tag':
			return finish(ctx, echo, limit, tagQuery(ctx, query));
		case 'prop':
			return finish(ctx, echo, limit, propQuery(ctx, query));
		case 'grep': {
			const compiled = grepMatcher(query);
			if (!compiled.ok) return failed(echo, compiled.error);
			return finish(
				ctx,
				echo,
				limit,
				await grepQuery(ctx, compiled.matcher, trigrams, order === undefined ? undefined : { order, limit }),
			);
		}
		case 'backlinks': {
			const subject = subjectNote(ctx, query.target, 'target');
			if ('error' in subject) return failed(echo, subject.error, subject.suggestions);
			echo.target = subject.path;
			return finish(ctx, echo, limit, backlinksQuery(ctx, subject.path));
		}
		case 'links': {
			const subject = subjectNote(ctx, query.source, 'source');
			if ('error' in subject) return failed(echo, subject.error, subject.suggestions);
			echo.source = subject.path;
			return linksEnvelope(ctx, echo, limit, subject.path);
		}
	}
}

/** The `links` query's envelope: one result per outgoing link, in document order. */
function linksEnvelope(
	ctx: QueryContext,
	echo: Record<string, unknown>,
	limit: number,
	path: string,
): QueryResult<LinkResult> {
	const all = linksQuery(ctx, path);
	const results = all.slice(0, limit);
	const limitations =
		all.length > results.length ? [`Truncated to ${results.length} of ${all.length} links ${RAISE_LIMIT}`] : [];
	const skipped = skippedFiles(ctx, true).filter((s) => s.path === path);
	return {
		status: skipped.length > 0 ? 'partial' : 'success',
		query: echo,
		searched: { files: 1, folders: [path] },
		matched: all.length,
		results,
		skipped,
		limitations,
	};
}
