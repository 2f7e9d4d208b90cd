/** A ranked search as Markdown for a terminal or an agent: what matched, why in plain words, and how to see more. */
import { displayLines, isTruncationNote } from '../display';
import { excludedCount } from '../scope';
import type { SearchHit, SearchResult } from './types';

/** Why a hit matched, in plain words (the JSON keeps the tier ids). */
export const TIER_WORDS: Record<SearchHit['tier'], string> = {
	synthesis: 'a priority note (it carries the priority marker), matched in its title or properties',
	'keyword-index': 'listed for the word in the keyword index',
	'alias-filename': 'matched in the title or an alias',
	metadata: 'matched in its properties',
	body: 'matched in the text',
	filter: 'matched the filters',
};
const ABSTRACT_LINES = 5; // why: a glance, not the note; `vault-query note` prints the whole.

/** How the renderer phrases what a face can act on. */
export interface SearchRenderOptions {
	/** Fills the footer's "Vault:". */
	vaultLabel?: string;
	/** How to see the hits past the limit, after "showing N" (the CLI: "raise --limit to see more"). */
	more?: string;
	/** List every note the scope's rules kept out, rule by rule, instead of one sum. */
	verbose?: boolean;
}

/** Whether a note is about the typed words themselves: most matched nothing, or one was searched as a near word. */
function isAboutWords(note: string): boolean {
	return note.startsWith('Most query words matched nothing') || note.includes(' matched no note; searched as ');
}

/** The notes for the reader: the truncation is in the count line; exclusions are summed in one line unless `verbose`. */
function notesOf(limitations: readonly string[], verbose: boolean): string[] {
	const notes: string[] = [];
	let excluded = 0;
	for (const l of limitations) {
		if (isTruncationNote(l)) continue;
		const count = verbose ? null : excludedCount(l);
		if (count === null) notes.push(l);
		else excluded += count;
	}
	if (excluded > 0)
		notes.push(`Not searched: ${excluded} note${excluded === 1 ? '' : 's'} in excluded folders or files.`);
	return notes;
}

/** "233 notes match; showing 10 (raise --limit …)": what the user can act on. */
function countLine(result: SearchResult, more: string | undefined): string {
	const shown = result.results.length;
	const head = `${result.matched} note${result.matched === 1 ? '' : 's'} match${result.matched === 1 ? 'es' : ''}`;
	return shown < result.matched ? `${head}; showing ${shown}${more === undefined ? '' : ` (${more})`}` : head;
}

/** The lines of one hit. */
function hitLines(hit: SearchHit, i: number): string[] {
	const out = [`### ${i + 1}. ${hit.title}`, `- **Path**: ${hit.path}`];
	const where =
		hit.tier === 'body' && hit.section !== null
			? `${TIER_WORDS.body}, under "${hit.section}"`
			: TIER_WORDS[hit.tier];
	out.push(`- **Why**: ${where}${hit.match_term !== null ? `: ${hit.match_term}` : ''}`);
	if (hit.tags.length > 0) out.push(`- **Tags**: ${hit.tags.join(' ')}`);
	const abstract = (hit.abstract !== '' ? hit.abstract : hit.excerpt)
		.split('\n')
		.slice(0, ABSTRACT_LINES)
		.filter((line) => line.trim() !== '');
	if (abstract.length > 0) out.push('- **Abstract**:', ...abstract.map((line) => `  > ${line}`));
	if (hit.section !== null && hit.excerpt !== '' && hit.excerpt !== hit.abstract)
		out.push(`- **Best section**: ${hit.section} — ${hit.excerpt}`);
	out.push('');
	return out;
}

/**
 * Render a search result as Markdown: the count and what is shown, each hit with why it matched
 * in plain words, the notes (limitations), the terms searched. The keyword index is named only
 * when one was used.
 */
export function renderSearchMarkdown(result: SearchResult, options: SearchRenderOptions | string = {}): string {
	const { vaultLabel = '.', more, verbose = false } = typeof options === 'string' ? { vaultLabel: options } : options;
	const raw = typeof result.query.raw === 'string' ? result.query.raw : '';
	const out: string[] = [`## Search: "${raw}"`, ''];
	if (result.status === 'failed') {
		out.push(`Search failed: ${result.error ?? 'unknown error'}`);
		return `${displayLines(out)}\n`;
	}
	const notes = notesOf(result.limitations, verbose);
	// What the query's words did (matched nothing, were corrected) changes how to read every hit: it comes first.
	const aboutWords = notes.filter(isAboutWords);
	for (const l of aboutWords) out.push(`> ${l}`, '');
	if (result.results.length === 0) {
		out.push('No notes found.', '');
		for (const a of result.advice) out.push(`- ${a}`);
		if (result.advice.length > 0) out.push('');
	} else {
		out.push(`${countLine(result, more)}:`, '');
		result.results.forEach((hit, i) => out.push(...hitLines(hit, i)));
	}
	const rest = notes.filter((l) => !isAboutWords(l));
	if (rest.length > 0) {
		out.push('Notes:');
		for (const l of rest) out.push(`- ${l}`);
		out.push('');
	}
	const terms = [...result.terms.typed, ...result.terms.expanded.map((e) => e.text)];
	out.push('---');
	const index = result.keyword_index === 'used' ? ' | Keyword index: used' : '';
	out.push(`Vault: ${vaultLabel}${index} | Terms searched: ${terms.length > 0 ? terms.join(', ') : '(none)'}`);
	return `${displayLines(out)}\n`;
}
