/** What a search that found nothing tells the user to try. */
import type { SearchResult } from './types';

/** What to try when nothing matched (a missing keyword index is not mentioned: it is optional). */
export function noResultsAdvice(result: SearchResult): string[] {
	const tried = [...result.terms.typed, ...result.terms.expanded.map((e) => e.text)];
	const advice = [
		`Terms tried: ${tried.length > 0 ? tried.join(', ') : '(none — the query held only filters or stop words)'}`,
	];
	advice.push('Broaden the query: fewer words, or drop a filter.');
	advice.push(
		'Try another word for it: a synonym, the title you expect, or the same words in another language your notes use.',
	);
	return advice;
}
