import { failed } from '../query/envelope';
import type { SearchResult } from './search';

/** A failed search envelope (bad input, or the vault not loaded yet), built on the engine's failed envelope. */
export function failedSearch(raw: string, error: string, suggestions?: string[]): SearchResult {
	return {
		...failed({ raw }, error, suggestions),
		terms: { typed: [], expanded: [], corrected: [], unmatched: [] },
		keyword_index: 'disabled',
		index_matches: 0,
		grep_matches: 0,
		advice: [],
	};
}
