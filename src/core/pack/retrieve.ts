/**
 * Retrieval for context packs: candidate notes from the ranked search (the whole query, then
 * each sub-question, so every facet gets its own candidates), split into sections, each section
 * graded per facet (grade.ts) and scored:
 *
 *   score = Σ over key words held:  idf × BM25 saturation of the word's count in the section's prose
 *         + 0.3 × the same for its count in the section's link text (LINK_WEIGHT, prose.ts)
 *         + 0.5 × idf for each key word in the section's heading
 *         + 0.3 × idf for each key word in the note's title, aliases or tags
 *   × (1 + 0.25 × the note's search score relative to the best hit)
 *   × 1.15 when the note links to or from one of the three best hits, or a link in one of the
 *     three best sections points at this section (`[[Note#Heading]]`, `[[Note#^block]]`).
 *
 * So exact term hits in the body count most, then title/tag/alias matches, then the link
 * neighbourhood — the seed's order. Sections named by a reference in the query are pinned
 * first; then each facet's best section (so a small budget still covers every sub-question);
 * then relevant before partial, each by score. Partial sections under a quarter of the best
 * score are padding and dropped; at most three sections per note and 24 in all. Only relevant and partial sections are kept; drafts and archived notes are left out
 * unless asked for (notes.ts).
 */
import type { NoteSource } from '../port';
import { parseQuery, type ParsedQuery } from '../search/query-parser';
import { search, type SearchIndex, type SearchResult } from '../search/search';
import { analyzeQueryText, type QueryWord } from '../search/tokenize';
import type { Facet } from './facets';
import { betterGrade, gradeRank, type Grade, type KeyWord } from './grade';
import { codeWanted } from './code';
import { aboveFloor, markDefining } from './defining';
import { boostNeighbours, followPointers, STRONG_HITS } from './links';
import { NoteLoader, type ExcludedNote, type RetrieveOptions } from './loader';
import { pinnedSections } from './references';
import { isCjkWord, neededTerms, sectionCandidate, type Candidate, type ScoringContext } from './section-score';
import { TermCounter } from './terms';
import { sectionsOf, type LinkRef } from './sections';

export type { ExcludedNote, RetrieveOptions } from './loader';
export { neededTerms, type Candidate } from './section-score';

const MAIN_LIMIT = 25; // why: a 20k-token pack holds ~20 sections; 25 notes leave room for sections that grade off-topic.
const FACET_LIMIT = 10; // why: each facet's own best notes, so a facet drowned out by the others still gets candidates.
const MAX_PER_NOTE = 3; // why: one long note should not fill the pack; three sections cover a note's relevant part.
const MAX_CANDIDATES = 24; // why: beyond ~24 sections even a 20k budget is padding (seed rule 4).
const WEAK_RATIO = 0.25; // why: a partial section scoring under a quarter of the best is padding, not evidence.
const MIN_IDF = 0.1; // why: a word in every note still counts a little, so a facet of only common words can be graded.

/** What retrieval found. */
export interface Retrieval {
	/** Kept candidates, ranked: pinned first, then relevant, then partial, each by score. */
	candidates: Candidate[];
	/** Key words per facet, with idf and expansions. */
	keys: KeyWord[][];
	excluded: ExcludedNote[];
	/** References in the query that name nothing in the vault. */
	unresolved: LinkRef[];
	/** Per facet, the notes the search found for it (best first), excluded notes left out: an unanswered facet's leads. */
	matched: string[][];
	/** Notes that could not be read. */
	unreadable: { path: string; reason: string }[];
	/** Limitations reported by the searches (deduplicated). */
	limitations: string[];
	/** Every facet's key words, each once, and the counter of their terms (its word cache reused for quoting). */
	allKeys: KeyWord[];
	counter: TermCounter;
}

/**
 * A facet's key words with their weights. A word the vault does not contain at all weighs the
 * mean of the facet's other words (so "work" in "how does sync work" cannot sink the facet, yet
 * still shows as missing); when no word is in the vault, each weighs as a word of one note.
 */
function weighKeys(
	index: SearchIndex,
	words: readonly QueryWord[],
	expansions: ReadonlyMap<string, QueryWord[]>,
): KeyWord[] {
	const idfs = words.map((w) => index.knownWordIdf(w));
	const known = idfs.filter((x): x is number => x !== null);
	const fallback = known.length > 0 ? known.reduce((a, b) => a + b, 0) / known.length : Math.log(1 + index.size);
	return words.map((word, i) => ({
		word,
		idf: Math.max(MIN_IDF, idfs[i] ?? fallback),
		expansions: expansions.get(word.text) ?? [],
		known: idfs[i] !== null,
	}));
}

/** An expansion's words as one word: all its index terms must be present. */
function expansionWord(text: string): QueryWord | null {
	const terms: string[] = [];
	for (const w of analyzeQueryText(text)) for (const t of w.alts[0] ?? []) if (!terms.includes(t)) terms.push(t);
	return terms.length > 0 ? { text, alts: [terms] } : null;
}

/** Filters and exclusions of a query written as query syntax, for the pack's report of its scope. */
export function scopeSyntax(parsed: ParsedQuery): string {
	const q = (s: string): string => `"${s.replace(/["\\]/g, '\\$&')}"`;
	const out: string[] = [];
	for (const f of parsed.filters) {
		const neg = f.negate ? '-' : '';
		if (f.kind === 'tag') out.push(`${neg}tag:#${f.value}`);
		else if (f.kind === 'path' || f.kind === 'file') out.push(`${neg}${f.kind}:${q(f.value)}`);
		else if (f.kind === 'backlinks') out.push(`${neg}backlinks:${q(f.target)}`);
		else out.push(`${neg}[${f.key}${f.value === null ? '' : `:${f.value}`}]`);
	}
	for (const e of parsed.excluded) out.push(`-${q(e)}`);
	for (const r of parsed.regexes) out.push(`${r.negate ? '-' : ''}/${r.source}/`);
	return out.join(' ');
}

/** A facet's own search: its words, under the whole query's filters, exclusions and regexes (phrases stay with the whole query). */
function facetQuery(facet: Facet, whole: ParsedQuery): ParsedQuery {
	const own = parseQuery(facet.text);
	return {
		...own,
		raw: facet.text,
		filters: [...own.filters, ...whole.filters],
		excluded: [...own.excluded, ...whole.excluded],
		regexes: [...own.regexes, ...whole.regexes],
		error: own.error ?? whole.error,
	};
}

/** What the searches found: candidate notes in first-seen order, their priors per facet, expansions, the strongest hits. */
interface SearchStage {
	/** Per note, its relative search score for each facet. */
	priors: Map<string, number[]>;
	order: string[];
	/** Expansions of each typed word, as words whose every term must be present. */
	expansions: Map<string, QueryWord[]>;
	/** Paths of the best few hits of the whole query (link neighbours get a boost). */
	strong: string[];
	limitations: Set<string>;
}

/**
 * Stage 1: candidate notes from the ranked search — the whole query, then each facet's own
 * search. The whole query's search counts half for every facet, a facet's own fully for it.
 */
async function searchStage(
	source: NoteSource,
	index: SearchIndex,
	parsed: ParsedQuery,
	facets: readonly Facet[],
	only?: ReadonlySet<string>,
): Promise<SearchStage | { error: string }> {
	const stage: SearchStage = {
		priors: new Map(),
		order: [],
		expansions: new Map(),
		strong: [],
		limitations: new Set(),
	};
	const take = (r: SearchResult, facet: number | null): void => {
		const top = r.results[0]?.score ?? 0;
		for (const l of r.limitations)
			if (!l.startsWith('Showing ') && !l.startsWith('No keyword index')) stage.limitations.add(l);
		for (const hit of r.results) {
			const rel = top > 0 ? hit.score / top : 0;
			let list = stage.priors.get(hit.path);
			if (!list) {
				stage.order.push(hit.path);
				stage.priors.set(hit.path, (list = facets.map(() => 0)));
			}
			for (let i = 0; i < list.length; i++) {
				const p = facet === null ? (facets.length > 1 ? rel / 2 : rel) : i === facet ? rel : 0;
				list[i] = Math.max(list[i]!, p);
			}
		}
		for (const e of r.terms.expanded) {
			if (e.from === null) continue;
			const w = expansionWord(e.text);
			if (!w) continue;
			const list = stage.expansions.get(e.from) ?? [];
			if (!list.some((x) => x.text === w.text)) list.push(w);
			stage.expansions.set(e.from, list);
		}
	};
	if (parsed.raw === '') return stage;
	// No links, backlinks or excerpts: the pack shows none of them (it quotes sections itself).
	const main = await search(index, parsed, {
		limit: MAIN_LIMIT,
		withBacklinks: false,
		withExcerpts: false,
		withLinks: false,
		source,
		paths: only,
	});
	if (main.status === 'failed') return { error: main.error ?? 'query: the search failed' };
	take(main, null);
	for (const hit of main.results.slice(0, STRONG_HITS)) if (hit.tier !== 'filter') stage.strong.push(hit.path);
	if (facets.length > 1) {
		for (const [i, f] of facets.entries()) {
			const r = await search(index, facetQuery(f, parsed), {
				limit: FACET_LIMIT,
				withBacklinks: false,
				withExcerpts: false,
				withLinks: false,
				source,
				paths: only,
			});
			if (r.status !== 'failed') take(r, i);
		}
	}
	return stage;
}

/** Stage 2: each facet's key words weighed, and the context every section is scored against. */
function scoringContext(
	index: SearchIndex,
	facets: readonly Facet[],
	expansions: ReadonlyMap<string, QueryWord[]>,
): ScoringContext {
	const keys: KeyWord[][] = facets.map((f) => weighKeys(index, f.words, expansions));
	const allKeys: KeyWord[] = [];
	for (const list of keys)
		for (const k of list) if (!allKeys.some((x) => x.word.text === k.word.text)) allKeys.push(k);
	const adjacency = keys.some((list) =>
		list.some((k, j) => j > 0 && isCjkWord(k.word.text) && isCjkWord(list[j - 1]!.word.text)),
	);
	return { facets, keys, allKeys, counter: new TermCounter(neededTerms(allKeys)), adjacency };
}

/** Stage 4: every section of every candidate note, graded and scored. */
async function scoreSections(order: readonly string[], loader: NoteLoader, ctx: ScoringContext): Promise<Candidate[]> {
	const scored: Candidate[] = [];
	for (const path of order) {
		const note = await loader.load(path);
		if (!note) continue;
		for (const section of sectionsOf(note.text, note.meta)) {
			const c = sectionCandidate(note, section, ctx);
			if (c) scored.push(c);
		}
	}
	return scored;
}

/** A relevant section scoring under this share of its facet's best relevant section is partial. */
const RELEVANT_OF_BEST = 0.5; // why: holding the words is not answering; under half the best evidence a section supports the answer, it does not give it.

/**
 * Stage 5c: relevance is relative. A section that holds a facet's words but scores under half
 * of the facet's best section (a passing mention: no heading or title naming it, one sentence
 * in a note about something else) is graded partial for it — it supports the answer, it is not
 * where the answer is. The best section of each facet stays relevant.
 */
function demoteWeakEvidence(scored: readonly Candidate[], facets: number): void {
	for (let i = 0; i < facets; i++) {
		let best = 0;
		for (const c of scored) if (c.grades[i]!.grade === 'relevant') best = Math.max(best, c.facetScores[i]!);
		for (const c of scored)
			if (c.grades[i]!.grade === 'relevant' && c.facetScores[i]! < RELEVANT_OF_BEST * best)
				c.grades[i] = { ...c.grades[i]!, grade: 'partial' };
	}
	for (const c of scored) c.best = c.grades.reduce<Grade>((b, g) => betterGrade(b, g.grade), 'off-topic');
}

/**
 * Stage 6: the final order — pinned sections, then each facet's best section, then relevant
 * before partial by score; weak partial padding dropped; at most three per note and 24 in all.
 */
function rankSections(
	scored: readonly Candidate[],
	pinned: readonly Candidate[],
	facets: readonly Facet[],
	keys: readonly KeyWord[][],
	counter: TermCounter,
): Candidate[] {
	const kept = scored.filter(
		(c) =>
			gradeRank(c.best) > 0 &&
			aboveFloor(c, keys, counter) &&
			!pinned.some((p) => p.path === c.path && p.section.start === c.section.start),
	);
	const byRank = (a: Candidate, b: Candidate): number =>
		gradeRank(b.best) - gradeRank(a.best) ||
		b.score - a.score ||
		a.path.localeCompare(b.path) ||
		a.section.start - b.section.start;
	kept.sort(byRank);
	// Each facet's best section goes first, so a small budget still covers every sub-question; a
	// facet that names a note (defining.ts) is answered by that note's section. With such a note
	// the head keeps the question's order (a defining lead may hold few of the words, so its score
	// says little); without, it goes by rank.
	const head: Candidate[] = [];
	let named = false;
	facets.forEach((_, i) => {
		const defining = kept.find((c) => c.defining?.includes(i));
		if (defining) named = true;
		const pick =
			defining ??
			kept.find((c) => c.grades[i]!.grade === 'relevant' && !head.includes(c)) ??
			kept.find((c) => c.grades[i]!.grade === 'partial' && !head.includes(c));
		if (pick && !head.includes(pick)) head.push(pick);
	});
	if (!named) head.sort(byRank);
	const top = kept[0]?.score ?? 0;
	const perNote = new Map<string, number>();
	const ranked: Candidate[] = [...pinned];
	for (const c of [...head, ...kept.filter((k) => !head.includes(k))]) {
		if (ranked.length >= MAX_CANDIDATES) break;
		if (c.best === 'partial' && c.score < WEAK_RATIO * top && !head.includes(c)) continue;
		const n = perNote.get(c.path) ?? 0;
		if (n >= MAX_PER_NOTE) continue;
		perNote.set(c.path, n + 1);
		ranked.push(c);
	}
	return ranked;
}

/**
 * Find, grade and rank the sections that answer `facets` (see the module comment). `parsed` is
 * the query without its references, already parsed; `refs` the references.
 */
export async function retrieve(
	source: NoteSource,
	index: SearchIndex,
	parsed: ParsedQuery,
	facets: readonly Facet[],
	refs: readonly LinkRef[],
	options: RetrieveOptions,
): Promise<Retrieval | { error: string }> {
	const stage = await searchStage(source, index, parsed, facets, options.only);
	if ('error' in stage) return stage;
	const ctx = scoringContext(index, facets, stage.expansions);
	const loader = new NoteLoader(source, facets, stage.priors, options, codeWanted(parsed.raw, facets));
	const { pinned, unresolved } = await pinnedSections(source, refs, loader, ctx, stage);
	const scored = await scoreSections(stage.order, loader, ctx);
	await boostNeighbours(source, scored, stage.strong, loader, ctx);
	await followPointers(source, scored, loader, ctx);
	demoteWeakEvidence(scored, facets.length);
	markDefining(await loader.loadedIn(stage.order), scored, ctx.keys);
	const candidates = rankSections(scored, pinned, facets, ctx.keys, ctx.counter);
	const left = new Set(loader.excluded.map((e) => e.path));
	const matched = facets.map((_, i) =>
		stage.order.filter((path) => !left.has(path) && (stage.priors.get(path)?.[i] ?? 0) > 0),
	);
	return {
		candidates,
		matched,
		keys: ctx.keys as KeyWord[][],
		excluded: loader.excluded,
		unresolved,
		unreadable: loader.unreadable,
		limitations: [...stage.limitations],
		allKeys: [...ctx.allKeys],
		counter: ctx.counter,
	};
}
