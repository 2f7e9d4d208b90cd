/** The seed's Step 6 Markdown for a ranked search, and its no-results advice. */
import { displayLines } from '../display';
import { fileName } from '../paths';
import { flattenValue, propertyValue } from '../yaml-values';
import type { SearchHit, SearchResult } from './search';

const TIER_LABELS: Record<SearchHit['tier'], string> = {
	synthesis: 'Synthesis',
	'keyword-index': 'Keyword index',
	'alias-filename': 'Alias/filename',
	metadata: 'Metadata',
	body: 'Body',
	filter: 'Filter',
};
const ABSTRACT_LINES = 5; // why: the seed quotes at most 5 lines of abstract.

function listOf(hit: SearchHit, key: string): string {
	const values = flattenValue(propertyValue(hit.frontmatter, key));
	return values.length > 0 ? values.join(', ') : '—';
}

/** Render a search result as the seed's Markdown (`vaultLabel` fills the footer's "Vault:"). */
export function renderSearchMarkdown(result: SearchResult, vaultLabel = '.'): string {
	const raw = typeof result.query.raw === 'string' ? result.query.raw : '';
	const out: string[] = [`## Vault Search: "${raw}"`, ''];
	if (result.status === 'failed') {
		out.push(`Search failed: ${result.error ?? 'unknown error'}`);
		return `${displayLines(out)}\n`;
	}
	if (result.results.length === 0) {
		out.push('No notes found.', '');
		for (const a of result.advice) out.push(`- ${a}`);
	} else {
		out.push(`Found ${result.matched} notes (${result.index_matches} index matches, ${result.grep_matches} grep matches):`, '');
		result.results.forEach((hit, i) => {
			out.push(`### ${i + 1}. ${fileName(hit.path)}${hit.synthesis ? ' [SYNTHESIS]' : ''}`);
			out.push(`- **Path**: ${hit.path}`);
			out.push(`- **Match**: ${TIER_LABELS[hit.tier]}${hit.match_term !== null ? `: ${hit.match_term}` : ''}`);
			out.push(`- **Categories**: ${listOf(hit, 'Categories')}  **Tags**: ${listOf(hit, 'tags')}`);
			out.push(`- **Aliases**: ${listOf(hit, 'aliases')}`);
			const abstract = (hit.abstract !== '' ? hit.abstract : hit.excerpt).split('\n').slice(0, ABSTRACT_LINES);
			out.push('- **Abstract**:');
			for (const line of abstract) out.push(`  > ${line}`);
			if (hit.section !== null && hit.excerpt !== hit.abstract) out.push(`- **Best section**: ${hit.section} — ${hit.excerpt}`);
			out.push('');
		});
	}
	if (result.limitations.length > 0) {
		out.push('Notes:');
		for (const l of result.limitations) out.push(`- ${l}`);
		out.push('');
	}
	const terms = [...result.terms.typed, ...result.terms.expanded.map((e) => e.text)];
	out.push('---');
	out.push(`Vault: ${vaultLabel} | Index: ${result.keyword_index === 'used' ? 'used' : 'missing'} | Terms searched: ${terms.join(', ')}`);
	return `${displayLines(out)}\n`;
}
