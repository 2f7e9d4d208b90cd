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
import { titleOf } from '../note-info';
import { findNote } from '../note-ref';
import { getAllTags, parseFrontMatterAliases, parseLinktext } from '../obsidian-rules';
import type { NoteSource } from '../port';
import { parseQuery, type ParsedQuery } from '../search/query-parser';
import { search, type SearchIndex, type SearchResult } from '../search/search';
import { analyzeQueryText, termsOf, type QueryWord } from '../search/tokenize';
import type { Facet } from './facets';
import { betterGrade, gradeRank, holdsKeyWord, type Grade, type KeyWord } from './grade';
import { codeWanted } from './code';
import { exclusionOf, type Exclusion } from './notes';
import {
	isCjkWord,
	neededTerms,
	sectionCandidate,
	type Candidate,
	type LoadedNote,
	type ScoringContext,
} from './section-score';
import { TermCounter } from './terms';
import { noteUnits, sectionsOf, subpathSection, type LinkRef, type NoteSection } from './sections';

export { neededTerms, type Candidate } from './section-score';

const NEIGHBOUR_BOOST = 0.15; // why: "a small boost": enough to reorder close sections, not to lift an off-topic one.
const STRONG_HITS = 3; // why: the head of the ranking; links from weaker hits are too loose to vouch for a neighbour.
const MAIN_LIMIT = 25; // why: a 20k-token pack holds ~20 sections; 25 notes leave room for sections that grade off-topic.
const FACET_LIMIT = 10; // why: each facet's own best notes, so a facet drowned out by the others still gets candidates.
const MAX_PER_NOTE = 3; // why: one long note should not fill the pack; three sections cover a note's relevant part.
const MAX_CANDIDATES = 24; // why: beyond ~24 sections even a 20k budget is padding (seed rule 4).
const WEAK_RATIO = 0.25; // why: a partial section scoring under a quarter of the best is padding, not evidence.
const MIN_IDF = 0.1; // why: a word in every note still counts a little, so a facet of only common words can be graded.
const MAX_BLOCK_MATCHES = 3; // why: a bare ^id can exist in several notes; more than three is not a reference anymore.

/** A note left out because it is a draft or archived. */
export interface ExcludedNote {
	path: string;
	reason: Exclusion;
}

/** What retrieval found. */
export interface Retrieval {
	/** Kept candidates, ranked: pinned first, then relevant, then partial, each by score. */
	candidates: Candidate[];
	/** Key words per facet, with idf and expansions. */
	keys: KeyWord[][];
	excluded: ExcludedNote[];
	/** References in the query that name nothing in the vault. */
	unresolved: LinkRef[];
	/** Notes that could not be read. */
	unreadable: { path: string; reason: string }[];
	/** Limitations reported by the searches (deduplicated). */
	limitations: string[];
	/** Every facet's key words, each once, and the counter of their terms (its word cache reused for quoting). */
	allKeys: KeyWord[];
	counter: TermCounter;
}

/** Options of {@link retrieve}. */
export interface RetrieveOptions {
	includeDrafts: boolean;
	includeArchived: boolean;
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
				list[i] = Math.max(list[i], p);
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
		list.some((k, j) => j > 0 && isCjkWord(k.word.text) && isCjkWord(list[j - 1].word.text)),
	);
	return { facets, keys, allKeys, counter: new TermCounter(neededTerms(allKeys)), adjacency };
}

/** Loads candidate notes once each, leaving out drafts and archived notes unless asked and noting unreadable ones. */
class NoteLoader {
	readonly excluded: ExcludedNote[] = [];
	readonly unreadable: { path: string; reason: string }[] = [];
	private readonly loaded = new Map<string, LoadedNote | null>();

	constructor(
		private readonly source: NoteSource,
		private readonly facets: readonly Facet[],
		private readonly priors: ReadonlyMap<string, number[]>,
		private readonly options: RetrieveOptions,
		/** Whether a fenced code block is worth quoting for this question (code.ts). */
		private readonly wantsCode: (code: string) => boolean,
	) {}

	/** Whether `path` was loaded (or refused) already. */
	has(path: string): boolean {
		return this.loaded.has(path);
	}

	/** The loaded note, or null when it is left out or unreadable. */
	async load(path: string): Promise<LoadedNote | null> {
		if (this.loaded.has(path)) return this.loaded.get(path) ?? null;
		const meta = this.source.getMetadata(path);
		const why = exclusionOf(meta);
		if ((why === 'draft' && !this.options.includeDrafts) || (why === 'archived' && !this.options.includeArchived)) {
			this.excluded.push({ path, reason: why });
			this.loaded.set(path, null);
			return null;
		}
		let text: string;
		try {
			text = await this.source.read(path);
		} catch (e) {
			this.unreadable.push({ path, reason: `unreadable: ${e instanceof Error ? e.message : String(e)}` });
			this.loaded.set(path, null);
			return null;
		}
		const names = [titleOf(path, meta), ...(parseFrontMatterAliases(meta?.frontmatter) ?? [])];
		const label = [...names, ...(meta ? getAllTags(meta) : []).map((t) => t.replace(/^#/, '').replace(/\//g, ' '))];
		const units = noteUnits(text, meta).filter(
			(u) => u.kind !== 'code' || this.wantsCode(text.slice(u.start, u.end)),
		);
		const note: LoadedNote = {
			path,
			text,
			meta,
			metaTerms: new Set(termsOf(label.join('\n'))),
			nameTerms: names.map((n) => termsOf(n)),
			priors: this.priors.get(path) ?? this.facets.map(() => 0),
			units,
		};
		this.loaded.set(path, note);
		return note;
	}
}

/** Stage 3: sections named in the query, in the order written; a whole-note reference makes the note a full-prior candidate. */
async function pinnedSections(
	source: NoteSource,
	refs: readonly LinkRef[],
	loader: NoteLoader,
	ctx: ScoringContext,
	stage: SearchStage,
): Promise<{ pinned: Candidate[]; unresolved: LinkRef[] }> {
	const unresolved: LinkRef[] = [];
	const pinned: Candidate[] = [];
	for (const ref of refs) {
		const targets = await resolveRef(source, ref);
		if (targets.length === 0) {
			unresolved.push(ref);
			continue;
		}
		for (const t of targets) {
			const note = await loader.load(t.path);
			if (!note) continue;
			if (t.section === null) {
				if (!stage.priors.has(t.path)) stage.order.push(t.path);
				note.priors = ctx.facets.map(() => 1);
				stage.priors.set(t.path, note.priors);
				continue;
			}
			const c = sectionCandidate(note, t.section, ctx);
			if (
				c &&
				!pinned.some(
					(p) => p.path === c.path && p.section.start === c.section.start && p.section.end === c.section.end,
				)
			) {
				c.pinned = true;
				pinned.push(c);
			}
		}
	}
	return { pinned, unresolved };
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

/**
 * Stage 5: the link neighbourhood — sections of notes linked with the best hits, and sections
 * a `[[Note#Heading]]` in one of the best sections points at (loaded when new), get a boost.
 */
async function boostNeighbours(
	source: NoteSource,
	scored: Candidate[],
	strong: readonly string[],
	loader: NoteLoader,
	ctx: ScoringContext,
): Promise<void> {
	const resolved = source.resolvedLinks();
	const boosted = new Set<Candidate>();
	for (const c of scored) {
		if (strong.includes(c.path)) continue;
		if (strong.some((s) => (resolved[c.path]?.[s] ?? 0) > 0 || (resolved[s]?.[c.path] ?? 0) > 0)) boosted.add(c);
	}
	const best = [...scored].sort((a, b) => b.score - a.score).slice(0, STRONG_HITS);
	for (const c of best) {
		for (const link of c.meta?.links ?? []) {
			const at = link.position.start.offset;
			if (at < c.section.start || at >= c.section.end || !link.link.includes('#')) continue;
			const { path: linkpath, subpath } = parseLinktext(link.link);
			const target = linkpath === '' ? c.path : source.resolveLink(linkpath, c.path);
			if (target === null || !target.toLowerCase().endsWith('.md')) continue;
			const isNew = !loader.has(target);
			const note = await loader.load(target);
			if (note && isNew) {
				for (const section of sectionsOf(note.text, note.meta)) {
					const extra = sectionCandidate(note, section, ctx);
					if (extra) scored.push(extra);
				}
			}
			if (!note) continue;
			const span = subpathSection(note.text, note.meta, subpath);
			if (!span) continue;
			const hit = scored.find(
				(s) => s.path === target && s.section.start <= span.start && span.start < s.section.end,
			);
			if (hit && hit !== c) boosted.add(hit);
		}
	}
	for (const c of boosted) c.score *= 1 + NEIGHBOUR_BOOST;
}

/** A followed pointer ranks its target this much above the signpost that points at it. */
const POINTER_LIFT = 1.1; // why: "the facts are in [[X]]" says X answers what the signpost asks, so X goes before it — by a step, not a leap.

/** The section a pointer target names: its `#heading`/`#^block` when given, else its best-scoring section. */
function pointedSection(sections: readonly Candidate[], note: LoadedNote, subpath: string): Candidate | null {
	if (subpath !== '') {
		const span = subpathSection(note.text, note.meta, subpath);
		if (span) return sections.find((s) => s.section.start <= span.start && span.start < s.section.end) ?? null;
	}
	let best: Candidate | null = null;
	for (const s of sections)
		if (
			!best ||
			gradeRank(s.best) > gradeRank(best.best) ||
			(gradeRank(s.best) === gradeRank(best.best) && s.score > best.score)
		)
			best = s;
	return best;
}

/**
 * Stage 5b: pointers followed. A signpost — a section whose heading, questions and pointer
 * sentences ask what a facet asks while its statements do not answer it ("What do we know
 * about X? The facts so far are in [[x-facts]].") — is not evidence; the section its pointer
 * names (loaded when new) takes the signpost's place: relevant for the facets the signpost
 * asks, when it holds at least one of their key words itself, and ranked just above it.
 */
async function followPointers(
	source: NoteSource,
	scored: Candidate[],
	loader: NoteLoader,
	ctx: ScoringContext,
): Promise<void> {
	for (const hub of scored.filter((c) => c.pointers.length > 0)) {
		for (const raw of hub.pointers) {
			const { path: linkpath, subpath } = parseLinktext(raw);
			const target = linkpath === '' ? hub.path : source.resolveLink(linkpath, hub.path);
			if (target === null || !target.toLowerCase().endsWith('.md')) continue;
			const isNew = !loader.has(target);
			const note = await loader.load(target);
			if (!note) continue;
			if (isNew) {
				for (const section of sectionsOf(note.text, note.meta)) {
					const extra = sectionCandidate(note, section, ctx);
					if (extra) scored.push(extra);
				}
			}
			const pick = pointedSection(
				scored.filter((c) => c.path === target && c !== hub),
				note,
				subpath,
			);
			if (!pick) continue;
			let lifted = false;
			hub.signposts.forEach((asks, i) => {
				if (
					!asks ||
					pick.grades[i].grade === 'relevant' ||
					!ctx.keys[i].some((k) => holdsKeyWord(pick.terms, k))
				)
					return;
				pick.grades[i] = { ...pick.grades[i], grade: 'relevant' };
				lifted = true;
			});
			if (!lifted) continue;
			hub.signposts.forEach((asks, i) => {
				if (asks) pick.facetScores[i] = Math.max(pick.facetScores[i], hub.facetScores[i] * POINTER_LIFT);
			});
			pick.best = 'relevant';
			pick.score = Math.max(pick.score, hub.score * POINTER_LIFT);
		}
	}
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
		for (const c of scored) if (c.grades[i].grade === 'relevant') best = Math.max(best, c.facetScores[i]);
		for (const c of scored)
			if (c.grades[i].grade === 'relevant' && c.facetScores[i] < RELEVANT_OF_BEST * best)
				c.grades[i] = { ...c.grades[i], grade: 'partial' };
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
): Candidate[] {
	const kept = scored.filter(
		(c) => gradeRank(c.best) > 0 && !pinned.some((p) => p.path === c.path && p.section.start === c.section.start),
	);
	const byRank = (a: Candidate, b: Candidate): number =>
		gradeRank(b.best) - gradeRank(a.best) ||
		b.score - a.score ||
		a.path.localeCompare(b.path) ||
		a.section.start - b.section.start;
	kept.sort(byRank);
	// Each facet's best section goes first, so a small budget still covers every sub-question.
	const head: Candidate[] = [];
	facets.forEach((_, i) => {
		const pick =
			kept.find((c) => c.grades[i].grade === 'relevant' && !head.includes(c)) ??
			kept.find((c) => c.grades[i].grade === 'partial' && !head.includes(c));
		if (pick) head.push(pick);
	});
	head.sort(byRank);
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
	const stage = await searchStage(source, index, parsed, facets);
	if ('error' in stage) return stage;
	const ctx = scoringContext(index, facets, stage.expansions);
	const loader = new NoteLoader(source, facets, stage.priors, options, codeWanted(parsed.raw, facets));
	const { pinned, unresolved } = await pinnedSections(source, refs, loader, ctx, stage);
	const scored = await scoreSections(stage.order, loader, ctx);
	await boostNeighbours(source, scored, stage.strong, loader, ctx);
	await followPointers(source, scored, loader, ctx);
	demoteWeakEvidence(scored, facets.length);
	const candidates = rankSections(scored, pinned, facets);
	return {
		candidates,
		keys: ctx.keys as KeyWord[][],
		excluded: loader.excluded,
		unresolved,
		unreadable: loader.unreadable,
		limitations: [...stage.limitations],
		allKeys: [...ctx.allKeys],
		counter: ctx.counter,
	};
}

/** The notes and spans a reference names (a bare `^id` may name blocks in several notes). */
async function resolveRef(source: NoteSource, ref: LinkRef): Promise<{ path: string; section: NoteSection | null }[]> {
	if (ref.linkpath === '') {
		if (!ref.subpath.startsWith('#^')) return [];
		const out: { path: string; section: NoteSection | null }[] = [];
		const id = ref.subpath.slice(2).toLowerCase();
		for (const path of source.listNotes()) {
			const meta = source.getMetadata(path);
			if (!meta?.blocks || !Object.hasOwn(meta.blocks, id)) continue;
			const text = await source.read(path).catch(() => null);
			const span = text === null ? null : subpathSection(text, meta, ref.subpath);
			if (span) out.push({ path, section: span });
			if (out.length >= MAX_BLOCK_MATCHES) break;
		}
		return out;
	}
	let path = source.resolveLink(ref.linkpath, '');
	if (path === null || !path.toLowerCase().endsWith('.md')) {
		const found = findNote(source, ref.linkpath, false); // An unknown reference goes to GAPS as written: no near names needed.
		path = found.kind === 'found' ? found.path : null;
	}
	if (path === null) return [];
	if (ref.subpath === '') return [{ path, section: null }];
	const text = await source.read(path).catch(() => null);
	if (text === null) return [];
	const span = subpathSection(text, source.getMetadata(path), ref.subpath);
	return span ? [{ path, section: span }] : [];
}
