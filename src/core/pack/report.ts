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
import { termsOf } from '../search/tokenize';
import { countOf } from '../size';

const MAX_BUDGET_GAPS = 8; // why: the first few left-out sections tell the agent what a bigger budget buys; a count covers the rest.
const TOKENS_PER_BUDGET_GAP = 300; // why: a listed section costs ~40 tokens; one per 300 keeps the list near a seventh of the budget.
const MAX_EXCLUDED_GAPS = 5; // why: naming a few drafts/archived notes shows what exists; the rest is a count.
const MAX_LEAD_NOTES = 5; // why: an unanswered facet's best few matching notes are leads to read; more is a search's job.

/**
 * The index terms a packed source shows for a facet: its quotes' words, and the words of the name
 * that makes its note the defining note (the block's header shows that name).
 */
function shownTerms(p: Prepared, variant: number, cache: Map<string, Set<string>>): Set<string> {
	const key = `${p.c.path}#${p.c.section.start}#${variant}`;
	let terms = cache.get(key);
	if (!terms) {
		terms = new Set(termsOf(p.variants[variant]!.quotes.join('\n')));
		for (const t of p.c.nameTerms ?? []) terms.add(t);
		cache.set(key, terms);
	}
	return terms;
}

/**
 * COVERAGE: per facet, the chosen sources graded relevant and partial. `covered` only when one
 * relevant source's quotes (with its defining name) hold every key word: words spread over
 * several sources, or held by the section but not by what is quoted, are not an answer. Else
 * `partial`, with the key words the best relevant source's quotes miss (or, without a relevant
 * source, those no packed quote holds).
 */
export function coverageOf(
	facets: readonly Facet[],
	keys: readonly KeyWord[][],
	prepared: readonly Prepared[],
	chosen: readonly Chosen[],
): CoverageLine[] {
	const cache = new Map<string, Set<string>>();
	return facets.map((f, i) => {
		const sources: string[] = [];
		const partial: string[] = [];
		const relevantTerms: Set<string>[] = [];
		chosen.forEach((ch, n) => {
			const g = prepared[ch.item]!.c.grades[i]!.grade;
			if (g === 'relevant') {
				sources.push(sourceId(n));
				relevantTerms.push(shownTerms(prepared[ch.item]!, ch.variant, cache));
			} else if (g === 'partial') partial.push(sourceId(n));
		});
		const lacking = (terms: ReadonlySet<string>): KeyWord[] => keys[i]!.filter((k) => !holdsKeyWord(terms, k));
		let missing: KeyWord[];
		if (relevantTerms.length > 0) {
			const weight = (list: readonly KeyWord[]): number => list.reduce((s, k) => s + k.idf, 0);
			missing = relevantTerms.map(lacking).reduce((a, b) => (weight(b) < weight(a) ? b : a));
		} else {
			const all = new Set(chosen.flatMap((ch) => [...shownTerms(prepared[ch.item]!, ch.variant, cache)]));
			missing = lacking(all);
		}
		// Never over-claim: a facet whose key word no relevant quote holds is at most partial.
		const status =
			sources.length > 0 && missing.length === 0
				? 'covered'
				: sources.length > 0 || partial.length > 0
					? 'partial'
					: 'gap';
		return {
			facet: f.text,
			status,
			sources,
			partial_sources: partial,
			missing_terms: missing.map((k) => k.word.text),
			absent_terms: missing.filter((k) => k.known === false).map((k) => k.word.text),
		};
	});
}

/**
 * The gap of an unanswered facet. Where the search did find notes for its words — in titles, tags,
 * paths, headings or text that grades off-topic — it names the best few, so an agent can read them
 * rather than conclude the vault says nothing of it.
 */
function unansweredGap(facet: string, byBudget: boolean, leads: readonly string[]): PackGap {
	if (byBudget) return { kind: 'unanswered', facet, text: `"${facet}": only sections left out for budget answer it` };
	if (leads.length === 0) return { kind: 'unanswered', facet, text: `"${facet}": no note in the vault answers it` };
	const notes = leads.slice(0, MAX_LEAD_NOTES);
	const more = leads.length > notes.length ? `, and ${leads.length - notes.length} more` : '';
	const count = `${countOf(leads.length, 'note')} match${leads.length === 1 ? 'es' : ''} its words`;
	return {
		kind: 'unanswered',
		facet,
		text: `"${facet}": no section answers it; ${count} without an answering section: ${notes.join(', ')}${more}`,
		notes,
		matched: leads.length,
	};
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
			const byBudget = leftOut.some((k) => prepared[k]!.c.grades[i]!.grade !== 'off-topic');
			// Leads only where the vault holds one of the facet's words: a fuzzy match of absent words is no lead.
			const inVault = r.keys[i]?.some((k) => k.known !== false) ?? false;
			gaps.push(unansweredGap(c.facet, byBudget, inVault ? (r.matched[i] ?? []) : []));
		} else if (c.status === 'partial') {
			// With a relevant source, what is missing is what the closest one does not quote (another packed quote may hold it).
			const why = c.sources.length > 0 ? 'the closest relevant source does not quote' : 'no packed quote holds';
			const missing = c.missing_terms.length > 0 ? `: ${why} ${c.missing_terms.join(', ')}` : '';
			gaps.push({ kind: 'partial', facet: c.facet, text: `"${c.facet}" is only partly answered${missing}` });
		}
	});
	const shown = compact ? 0 : Math.min(MAX_BUDGET_GAPS, Math.max(2, Math.floor(budget / TOKENS_PER_BUDGET_GAP)));
	for (const k of leftOut.slice(0, shown)) {
		const p = prepared[k]!;
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
