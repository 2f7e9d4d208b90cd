import { failed } from '../core/query/envelope';
import type { SearchResult } from '../core/search/search';
import type { FaceSearchOptions, FacesHost } from './host';

/**
 * The faces' search: core ranked search, with `backlinks:Note` counted the way the structural
 * backlinks query (and the side panel) counts links — body links, `[[…]]` in properties, and the
 * bare names of the `links:` property. Core's own `backlinks:` reads Obsidian's `resolvedLinks`
 * only, which has no `links:` names, so here each `backlinks:` clause is taken out of the query,
 * answered by the structural query, and applied to the ranked hits of the rest.
 */

/** One `backlinks:` clause. */
export interface BacklinkClause {
	target: string;
	negate: boolean;
}

const STRUCTURAL_LIMIT = 1_000_000; // why: a clause needs every linking note, not the first page.
const FIRST_PROBE = 40; // why: enough ranked hits that a typical clause keeps a full page at the first try.
const PROBE_GROWTH = 4; // why: few retries even when the clause keeps one hit in a hundred.
// A query that matches every note, for a query made only of `backlinks:` clauses.
const EVERY_NOTE = 'file:.md';

/** The index after a `/regex/` token that starts at `i`, or -1 (closing `/` before whitespace or the end, as core parses). */
function regexEnd(s: string, i: number): number {
	for (let j = i + 1; j < s.length; j++) {
		if (s[j] === '\\') j++;
		else if (s[j] === '/' && j > i + 1 && (j + 1 >= s.length || /\s/.test(s[j + 1]))) return j + 1;
	}
	return -1;
}

/** The index after a `"…"` starting at `i`. */
function quotedEnd(s: string, i: number): number {
	let j = i + 1;
	while (j < s.length && s[j] !== '"') j += s[j] === '\\' ? 2 : 1;
	return Math.min(j + 1, s.length);
}

/** The `backlinks:` clauses of a query and the query without them (phrases and regexes are left alone). */
export function splitBacklinks(text: string): { rest: string; clauses: BacklinkClause[] } {
	const clauses: BacklinkClause[] = [];
	let rest = '';
	let i = 0;
	while (i < text.length) {
		if (/\s/.test(text[i])) {
			rest += text[i++];
			continue;
		}
		const negate = text[i] === '-';
		const at = negate ? i + 1 : i;
		const op = /^backlinks:/i.exec(text.slice(at));
		let end: number;
		if (op) {
			const valueAt = at + op[0].length;
			end = text[valueAt] === '"' ? quotedEnd(text, valueAt) : valueAt + (/^\S*/.exec(text.slice(valueAt))?.[0].length ?? 0);
			const raw = text.slice(valueAt, end);
			const target = raw.startsWith('"') ? raw.slice(1, raw.endsWith('"') && raw.length > 1 ? -1 : undefined) : raw;
			if (target.trim() !== '') clauses.push({ target: target.trim(), negate });
			i = end;
			continue;
		}
		if (text[at] === '"') end = quotedEnd(text, at);
		else if (text[at] === '/' && regexEnd(text, at) > 0) end = regexEnd(text, at);
		else end = at + (/^\S*/.exec(text.slice(at))?.[0].length ?? 0);
		rest += text.slice(i, end);
		i = end;
	}
	return { rest: rest.replace(/\s+/g, ' ').trim(), clauses };
}

/** A failed search envelope (bad input, or the vault not loaded yet). */
export function failedSearch(raw: string, error: string, suggestions?: string[]): SearchResult {
	return {
		...failed({ raw }, error, suggestions),
		terms: { typed: [], expanded: [] },
		keyword_index: 'disabled',
		index_matches: 0,
		grep_matches: 0,
		advice: [],
	};
}

/** Paths linking to each clause's note, per the structural backlinks query; or the failure. */
async function linkingSets(host: FacesHost, raw: string, clauses: BacklinkClause[]): Promise<{ sets: { paths: Set<string>; negate: boolean }[] } | { failed: SearchResult }> {
	const sets: { paths: Set<string>; negate: boolean }[] = [];
	for (const clause of clauses) {
		const result = await host.query({ type: 'backlinks', target: clause.target, limit: STRUCTURAL_LIMIT });
		if (result.status === 'failed') return { failed: failedSearch(raw, `backlinks:${clause.target}: ${result.error ?? 'could not run'}`, result.suggestions) };
		sets.push({ negate: clause.negate, paths: new Set(result.results.map((r) => ('path' in r ? r.path : ''))) });
	}
	return { sets };
}

/**
 * Search as the modal, the side panel and code blocks do (see the module comment). Without a
 * `backlinks:` clause this is exactly core's search.
 */
export async function searchVault(host: FacesHost, text: string, options: FaceSearchOptions = {}): Promise<SearchResult> {
	const { rest, clauses } = splitBacklinks(text);
	if (clauses.length === 0) return host.search(text, options);
	const linking = await linkingSets(host, text.trim(), clauses);
	if ('failed' in linking) return linking.failed;
	const keep = (path: string): boolean => linking.sets.every((s) => s.paths.has(path) !== s.negate);
	const limit = options.limit ?? host.searchLimit();
	const base = rest === '' ? EVERY_NOTE : rest;
	let probe = Math.max(limit * PROBE_GROWTH, FIRST_PROBE);
	for (;;) {
		const result = await host.search(base, { ...options, limit: probe });
		if (result.status === 'failed') return { ...result, query: { ...result.query, raw: text.trim() } };
		const kept = result.results.filter((hit) => keep(hit.path));
		const exhaustive = result.results.length >= result.matched;
		if (kept.length < limit && !exhaustive) {
			probe *= PROBE_GROWTH;
			continue;
		}
		const filters: unknown[] = Array.isArray(result.query.filters) && rest !== '' ? (result.query.filters as unknown[]) : [];
		result.query = { ...result.query, raw: text.trim(), filters: [...filters, ...clauses.map((c) => ({ kind: 'backlinks', target: c.target, negate: c.negate }))] };
		result.limitations = result.limitations.filter((line) => !/^Showing \d+ of \d+ matching notes/.test(line));
		result.limitations.push('backlinks: counts body links, links in properties and the names of the links property, as the backlinks query does.');
		result.matched = exhaustive ? kept.length : Math.max(kept.length, limit);
		if (kept.length > limit) result.limitations.push(`Showing ${limit} of ${exhaustive ? kept.length : `at least ${kept.length}`} matching notes (limit ${limit}).`);
		result.results = kept.slice(0, limit);
		return result;
	}
}
