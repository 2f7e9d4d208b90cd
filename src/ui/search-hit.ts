import type { SearchHit, Tier } from '../core/search/search';
import { renderHighlighted, termNeedles } from './highlight';

/**
 * One ranked hit as a row, the same in the search modal, the side panel's query box and code
 * blocks: title and folder; why it matched (tier, matched terms); the snippet with the terms
 * highlighted, prefixed by its section; the note's tags. Classes only; styles.css draws it.
 */

/** How each tier reads in the UI (sentence case). */
export const TIER_LABELS: Record<Tier, string> = {
	synthesis: 'Priority note',
	'keyword-index': 'Keyword index',
	'alias-filename': 'Title or alias',
	metadata: 'Properties',
	body: 'Text',
	filter: 'Filter',
};

const MAX_TAGS = 6; // why: a row stays one line of tags; the note itself has the rest.

/** The matched terms as the row shows them: typed words first, each label without its "(synonym of …)" note. */
export function termList(hit: SearchHit): string[] {
	const out: string[] = [];
	for (const label of hit.matched_terms) {
		const cut = label.indexOf(' (');
		const word = cut < 0 ? label : label.slice(0, cut);
		if (!out.includes(word)) out.push(word);
	}
	return out;
}

/** The folder as a row shows it ("/" for the vault root). */
export function folderLabel(folder: string): string {
	return folder === '' ? '/' : folder;
}

/** Renders `hit` into `el` (a suggestion item or a list row). */
export function renderHit(el: HTMLElement, hit: SearchHit): void {
	const tags = hit.tags;
	el.addClass('vault-query-hit');
	const content = el.createDiv('suggestion-content');
	const header = content.createDiv('vault-query-hit-header');
	header.createSpan({ cls: ['suggestion-title', 'vault-query-hit-title'], text: hit.title });
	header.createSpan({ cls: ['suggestion-note', 'vault-query-hit-folder'], text: folderLabel(hit.folder) });
	const why = content.createDiv('vault-query-hit-why');
	why.createSpan({ cls: ['vault-query-tier', `mod-${hit.tier}`], text: TIER_LABELS[hit.tier] });
	const terms = termList(hit);
	if (terms.length > 0) why.createSpan({ cls: 'vault-query-hit-terms', text: terms.join(', ') });
	const excerpt = hit.excerpt.trim();
	if (excerpt !== '') {
		const snippet = content.createDiv('vault-query-hit-snippet');
		if (hit.section !== null) snippet.createSpan({ cls: 'vault-query-hit-section', text: `${hit.section} · ` });
		renderHighlighted(snippet, excerpt, termNeedles(hit.matched_terms));
	}
	if (tags.length > 0) {
		const row = content.createDiv('vault-query-hit-tags');
		for (const tag of tags.slice(0, MAX_TAGS)) row.createSpan({ cls: 'vault-query-tag', text: tag });
		if (tags.length > MAX_TAGS)
			row.createSpan({ cls: 'vault-query-tag mod-more', text: `+${tags.length - MAX_TAGS}` });
	}
}
