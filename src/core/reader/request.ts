import { grepMatcher } from '../query/grep';
import type { TextMatcher } from '../text/matcher';
import type { Schema } from '../schema/types';
import type { Rejection } from '../schema/validate';
import { postFiltersOf, type PostFilters } from './post-filters';
import { describePredicate, parseWhere, validateWhere, type Predicate } from './where';
import { READER_OPERATIONS, type ReaderOperation, type ReaderRequest, type ReaderSettings } from './types';

/** A request that passed validation, with defaults filled in. */
export interface ReaderPlan {
	operation: ReaderOperation;
	slug: string;
	predicates: Predicate[];
	/** text-search: the bounded matcher (a literal, or a regex on RE2). */
	matcher: TextMatcher | null;
	post: PostFilters;
	excerptChars: number;
	maxResults: number;
	fullBody: boolean;
	resolveWikilinks: boolean;
	knownSkillRefs: string[];
}

/** A rejection without suggestions. */
function bad(error: string): Rejection {
	return { error, suggestions: [] };
}

/** A positive whole number parameter, or its rejection. */
function count(name: string, value: number | undefined, fallback: number): number | Rejection {
	if (value === undefined) return fallback;
	return Number.isInteger(value) && value >= 1
		? value
		: bad(`${name}: must be a positive whole number, got ${String(value)}`);
}

/** The query as the report echoes it: the parameters that apply to the operation, defaults filled in. */
export function echoOf(request: ReaderRequest, settings: ReaderSettings): Record<string, unknown> {
	const echo: Record<string, unknown> = { operation: request.operation };
	if (request.operation === 'lookup' || request.operation === 'graph') echo.slug = request.slug;
	if (request.operation === 'filter') {
		const parsed = parseWhere(request.where);
		echo.where = Array.isArray(parsed) ? parsed.map(describePredicate) : request.where;
	}
	if (request.operation === 'text-search')
		Object.assign(echo, {
			pattern: request.pattern,
			regex: request.regex === true,
			case_sensitive: request.case_sensitive === true,
		});
	echo.folders =
		request.folders && request.folders.length > 0
			? request.folders
			: `default (${settings.defaultFolders.length > 0 ? settings.defaultFolders.join(', ') : 'whole vault'})`;
	Object.assign(echo, {
		full_body: request.full_body === true,
		excerpt_chars: request.excerpt_chars ?? settings.excerptChars,
		max_results: request.max_results ?? settings.maxResults,
		include_archived: request.include_archived === true,
	});
	if (request.min_confidence !== undefined) echo.min_confidence = request.min_confidence;
	if (request.max_staleness_days !== undefined) echo.max_staleness_days = request.max_staleness_days;
	if (request.today !== undefined) echo.today = request.today;
	if (request.operation === 'graph')
		Object.assign(echo, {
			resolve_wikilinks: request.resolve_wikilinks !== false,
			known_skill_refs: request.known_skill_refs ?? [],
		});
	return echo;
}

/** Whether a string parameter is missing or blank. */
function blank(value: string | undefined): boolean {
	return value === undefined || value.trim() === '';
}

/**
 * Step 2 of the seed: the operation, its conditional parameters, the numbers, the regex, every
 * `where` field and enum value, `min_confidence` and the staleness window — all against the
 * schema, before a single note is read.
 */
export function planRequest(request: ReaderRequest, settings: ReaderSettings, schema: Schema): ReaderPlan | Rejection {
	const operation = READER_OPERATIONS.find((op) => op === request.operation);
	if (operation === undefined)
		return bad(`operation: "${String(request.operation)}" is not one of ${READER_OPERATIONS.join(', ')}`);
	if ((operation === 'lookup' || operation === 'graph') && blank(request.slug))
		return bad(`slug: required for ${operation}`);
	if (operation === 'text-search' && blank(request.pattern)) return bad('pattern: required for text-search');
	if (operation === 'filter' && (request.where === undefined || Object.keys(request.where).length === 0))
		return bad('where: required for filter (at least one field=value)');
	const predicates = parseWhere(operation === 'filter' ? request.where : undefined);
	if (!Array.isArray(predicates)) return predicates;
	const invalid = validateWhere(schema, predicates);
	if (invalid) return invalid;
	let matcher: TextMatcher | null = null;
	if (operation === 'text-search') {
		const compiled = grepMatcher({
			type: 'grep',
			pattern: request.pattern ?? '',
			regex: request.regex === true,
			caseSensitive: request.case_sensitive === true,
		});
		if (!compiled.ok) return bad(compiled.error);
		matcher = compiled.matcher;
	}
	const excerptChars = count('excerpt_chars', request.excerpt_chars, settings.excerptChars);
	if (typeof excerptChars !== 'number') return excerptChars;
	const maxResults = count('max_results', request.max_results, settings.maxResults);
	if (typeof maxResults !== 'number') return maxResults;
	const post = postFiltersOf(schema, request);
	if ('error' in post) return post;
	return {
		operation,
		slug: request.slug?.trim() ?? '',
		predicates,
		matcher,
		post,
		excerptChars,
		maxResults,
		fullBody: request.full_body === true,
		resolveWikilinks: request.resolve_wikilinks !== false,
		knownSkillRefs: request.known_skill_refs ?? [],
	};
}
