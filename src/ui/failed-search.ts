import { failed } from '../core/query/envelope';
import type { SearchResult } from '../core/search/search';

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
