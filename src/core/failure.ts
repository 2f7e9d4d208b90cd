import type { QueryResult } from './contract';

/**
 * The one place that decides what a `failed` answer looks like (issue 9: there were four
 * builders). Every kind keeps its own contract — a query result, a search, a reader report, a
 * context pack, the CLI's "could not run at all" object — but each is built here or on top of
 * {@link failedEnvelope}, so "failed" always means: `status: 'failed'`, an `error` naming the bad
 * parameter, suggestions only when there are some, nothing searched unless said, no results.
 */

/** The fields every failed envelope over a vault carries (a pack has no `matched`/`results`). */
export type FailedEnvelope = Pick<
	QueryResult<never>,
	'status' | 'query' | 'searched' | 'skipped' | 'limitations' | 'error' | 'suggestions'
>;

/** What `--json` prints when a CLI command could not run at all: one object, so `JSON.parse(stdout)` never fails. */
export interface FailureObject {
	status: 'failed';
	error: string;
	command: string | null;
	/** The command's usage line, for usage mistakes. */
	usage?: string;
}

/** A failed envelope without result fields: `searchedFiles` when the failure came after the scope was known. */
export function failedEnvelope(
	query: Record<string, unknown>,
	error: string,
	suggestions?: readonly string[],
	searchedFiles = 0,
): FailedEnvelope {
	const envelope: FailedEnvelope = {
		status: 'failed',
		query,
		searched: { files: searchedFiles, folders: [] },
		skipped: [],
		limitations: [],
		error,
	};
	if (suggestions && suggestions.length > 0) envelope.suggestions = [...suggestions];
	return envelope;
}

/** A failed result list (query, search, reader, note): the envelope plus `matched: 0` and no results. */
export function failedResult(
	query: Record<string, unknown>,
	error: string,
	suggestions?: readonly string[],
): QueryResult<never> {
	const { status, searched, skipped, limitations, suggestions: hints } = failedEnvelope(query, error, suggestions);
	// Key order is the contract's (status, query, searched, matched, results, …): JSON readers diff it.
	const result: QueryResult<never> = {
		status,
		query,
		searched,
		matched: 0,
		results: [],
		skipped,
		limitations,
		error,
	};
	if (hints) result.suggestions = hints;
	return result;
}

/**
 * Turn an answer that was being built into a failed one, keeping what it already said (its
 * query echo, terms, limitations): a search that finds its query bad only after parsing it.
 */
export function markFailed<T extends { status: string; error?: string; suggestions?: string[] }>(
	answer: T,
	error: string,
	suggestions?: readonly string[],
): T {
	answer.status = 'failed';
	answer.error = error;
	if (suggestions && suggestions.length > 0) answer.suggestions = [...suggestions];
	return answer;
}

/** The CLI's failure object for a command that could not run (unknown command, usage mistake, internal error). */
export function failureObject(command: string | null, error: string, usage?: string): FailureObject {
	const failure: FailureObject = { status: 'failed', error, command };
	if (usage !== undefined) failure.usage = usage;
	return failure;
}
