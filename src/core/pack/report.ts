/**
 * COVERAGE and GAPS of a context pack: per facet, which packed sources answer it and which key
 * words none of them holds; then what the agent should know is missing — unresolved
 * references, unanswered and partly answered facets, sections left out for budget, drafts and
 * archived notes left out.
 */
import { sourceId, type Chosen } from './budget';
import type { Facet } from './facets';
import { holdsKeyWord, type KeyWord } from './grade';
import type { Prepared } from './prepare';
import { lineRange } from './render';
import type { Retrieval } from './retrieve';
import type { CoverageLine, PackGap } from './types';

const MAX_BUDGET_GAPS = 8; // why: the first few left-out sections tell the agent what a bigger budget buys; a count covers the rest.
const TOKENS_PER_BUDGET_GAP = 300; // why: a listed section costs ~40 tokens; one per 300 keeps the list near a seventh of the budget.
const MAX_EXCLUDED_GAPS = 5; // why: naming a few drafts/archived notes shows what exists; the rest is a count.

/** COVERAGE: per facet, the chosen sources graded relevant and partial, and the key words none of them holds. */
export function coverageOf(
	facets: readonly Facet[],
	keys: readonly KeyWord[][],
	prepared: readonly Prepared[],
	chosen: readonly Chosen[],
): CoverageLine[] {
	return facets.map((f, i) => {
		const sources: string[] = [];
		const partial: string[] = [];
		chosen.forEach((ch, n) => {
			const g = prepared[ch.item].c.grades[i].grade;
			if (g === 'relevant') sources.push(sourceId(n));
			else if (g === 'partial') partial.push(sourceId(n));
		});
		const missing = keys[i]
			.filter((k) => !chosen.some((ch) => holdsKeyWord(prepared[ch.item].c.terms, k)))
			.map((k) => k.word.text);
		// Never over-claim: a facet with a key word no packed source holds is at most partial.
		const status =
			sources.length > 0 && missing.length === 0
				? 'covered'
				: sources.length > 0 || partial.length > 0
					? 'partial'
					: 'gap';
		return { facet: f.text, status, sources, partial_sources: partial, missing_terms: missing };
	});
}

/** GAPS: unresolved references, unanswered and partly answered facets, sections left out for budget, excluded notes. */
export function gapsOf(
	r: Retrieval,
	coverage: readonly CoverageLine[],
	prepared: readonly Prepared[],
	leftOut: readonly number[],
	compact: boolean,
	budget: number,
): PackGap[] {
	const gaps: PackGap[] = [];
	for (const ref of r.unresolved) gaps.push({ kind: 'unresolved', text: `Not found in the vault: ${ref.raw}` });
	coverage.forEach((c, i) => {
		if (c.status === 'gap') {
			const byBudget = leftOut.some((k) => prepared[k].c.grades[i].grade !== 'off-topic');
			const why = byBudget ? 'only sections left out for budget answer it' : 'no note in the vault answers it';
			gaps.push({ kind: 'unanswered', facet: c.facet, text: `"${c.facet}": ${why}` });
		} else if (c.status === 'partial') {
			const missing = c.missing_terms.length > 0 ? `: no packed source holds ${c.missing_terms.join(', ')}` : '';
			gaps.push({ kind: 'partial', facet: c.facet, text: `"${c.facet}" is only partly answered${missing}` });
		}
	});
	const shown = compact ? 0 : Math.min(MAX_BUDGET_GAPS, Math.max(2, Math.floor(budget / TOKENS_PER_BUDGET_GAP)));
	for (const k of leftOut.slice(0, shown)) {
		const p = prepared[k];
		gaps.push({
			kind: 'budget',
			path: p.c.path,
			section: p.section,
			lines: p.sectionLines,
			text: `Left out for budget: ${p.c.path} § ${p.section} (${lineRange(p.sectionLines)}, ${p.c.best})`,
		});
	}
	if (leftOut.length > shown) {
		const more = leftOut.length - shown;
		gaps.push({
			kind: 'budget',
			text: `${shown > 0 ? 'And ' : ''}${more} more section${more === 1 ? '' : 's'} left out for budget`,
		});
	}
	const shownEx = compact ? 0 : MAX_EXCLUDED_GAPS;
	for (const e of r.excluded.slice(0, shownEx))
		gaps.push({
			kind: 'excluded',
			path: e.path,
			text: `Left out as ${e.reason === 'draft' ? 'a draft' : 'archived'}: ${e.path}`,
		});
	if (r.excluded.length > shownEx) {
		const more = r.excluded.length - shownEx;
		gaps.push({
			kind: 'excluded',
			text: `${shownEx > 0 ? 'And ' : ''}${more} more matching draft or archived note${more === 1 ? '' : 's'} left out`,
		});
	}
	return gaps;
}
