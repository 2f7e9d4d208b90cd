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
import type { CachedMetadata } from '../metadata';
import { titleOf } from '../note-info';
import { findNote } from '../note-ref';
import { getAllTags, parseFrontMatterAliases } from '../obsidian-rules';
import type { NoteSource } from '../port';
import type { ParsedQuery } from '../search/query-parser';
import { search as rankedSearch, type SearchIndex, type SearchResult } from '../search/search';
import { analyzeQueryText, normalizeText, termsOf, type QueryWord } from '../search/tokenize';
import type { Facet } from './facets';
import { gradeFacet, gradeRank, holdsKeyWord, type FacetGrade, type Grade, type KeyWord } from './grade';
import { exclusionOf, type Exclusion } from './notes';
import { LINK_WEIGHT, readerText } from './prose';
import { TermCounter } from './terms';
import { noteUnits, sectionsOf, subpathSection, unitsIn, type LinkRef, type NoteSection, type QuoteUnit } from './sections';

const BM25_K1 = 1.2; // why: the usual BM25 saturation; the third mention of a word adds little.
const BM25_B = 0.75; // why: the usual length normalisation, so a long section does not win on length alone.
/** Typical section length in estimated tokens, for BM25 length normalisation (fixed, so scores compare across queries). */
const AVERAGE_SECTION_TOKENS = 150; // why: a few short paragraphs, about the median leaf section of the help vaults.
const HEADING_WEIGHT = 0.5; // why: a heading naming the word says the section is about it, short of the words themselves.
const META_WEIGHT = 0.3; // why: title/tag/alias matches guide retrieval but are not evidence (seed rule 5).
const ADJACENT_WEIGHT = 0.5; // why: two question words written together (创建链接) are the question's own phrase, worth half their weight again.
const OTHER_FACETS_WEIGHT = 0.25; // why: a section scores by the facet it answers best; loose hits for other facets only break ties.
const PRIOR_WEIGHT = 0.25; // why: the note's whole-text rank breaks near-ties between sections, never overrides them.
const NEIGHBOUR_BOOST = 0.15; // why: "a small boost": enough to reorder close sections, not to lift an off-topic one.
const STRONG_HITS = 3; // why: the head of the ranking; links from weaker hits are too loose to vouch for a neighbour.
const MAIN_LIMIT = 25; // why: a 20k-token pack holds ~20 sections; 25 notes leave room for sections that grade off-topic.
const FACET_LIMIT = 10; // why: each facet's own best notes, so a facet drowned out by the others still gets candidates.
const MAX_PER_NOTE = 3; // why: one long note should not fill the pack; three sections cover a note's relevant part.
const MAX_CANDIDATES = 24; // why: beyond ~24 sections even a 20k budget is padding (seed rule 4).
const WEAK_RATIO = 0.25; // why: a partial section scoring under a quarter of the best is padding, not evidence.
const MIN_IDF = 0.1; // why: a word in every note still counts a little, so a facet of only common words can be graded.
const MAX_BLOCK_MATCHES = 3; // why: a bare ^id can exist in several notes; more than three is not a reference anymore.

/** A section ready to be quoted: where it is, how it graded and scored, and its text units. */
export interface Candidate {
	path: string;
	text: string;
	meta: CachedMetadata | null;
	section: NoteSection;
	units: QuoteUnit[];
	/** Index terms of the section's heading and quotable text, prose and link text together. */
	terms: Set<string>;
	/** Grade per facet, in facet order. */
	grades: FacetGrade[];
	/** Best grade over the facets. */
	best: Grade;
	score: number;
	/** Named by a reference in the query. */
	pinned: boolean;
}

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
}

/** Options of {@link retrieve}. */
export interface RetrieveOptions {
	includeDrafts: boolean;
	includeArchived: boolean;
}

/** Mean idf of a word's first alternative, or null when the vault does not hold one of its terms. */
function wordIdf(index: SearchIndex, word: QueryWord): number | null {
	const alt = word.alts[0] ?? [];
	let sum = 0;
	for (const term of alt) {
		const t = index.index.lookup(term);
		if (t < 0) return null;
		sum += index.index.idf(t);
	}
	return alt.length > 0 ? sum / alt.length : null;
}

/**
 * A facet's key words with their weights. A word the vault does not contain at all weighs the
 * mean of the facet's other words (so "work" in "how does sync work" cannot sink the facet, yet
 * still shows as missing); when no word is in the vault, each weighs as a word of one note.
 */
function weighKeys(index: SearchIndex, words: readonly QueryWord[], expansions: ReadonlyMap<string, QueryWord[]>): KeyWord[] {
	const idfs = words.map((w) => wordIdf(index, w));
	const known = idfs.filter((x): x is number => x !== null);
	const fallback = known.length > 0 ? known.reduce((a, b) => a + b, 0) / known.length : Math.log(1 + index.size);
	return words.map((word, i) => ({ word, idf: Math.max(MIN_IDF, idfs[i] ?? fallback), expansions: expansions.get(word.text) ?? [] }));
}

/** An expansion's words as one word: all its index terms must be present. */
function expansionWord(text: string): QueryWord | null {
	const terms: string[] = [];
	for (const w of analyzeQueryText(text)) for (const t of w.alts[0] ?? []) if (!terms.includes(t)) terms.push(t);
	return terms.length > 0 ? { text, alts: [terms] } : null;
}

/** How often a key word occurs in a section: the rarest of its terms' counts, best alternative. */
function keyCount(counts: ReadonlyMap<string, number>, key: KeyWord): number {
	let best = 0;
	for (const w of [key.word, ...key.expansions]) {
		for (const alt of w.alts) {
			if (alt.length === 0) continue;
			let c = Infinity;
			for (const t of alt) c = Math.min(c, counts.get(t) ?? 0);
			best = Math.max(best, c);
		}
	}
	return best;
}

/** BM25's saturation of a count `tf` in a section of length factor `norm` (0 for no mention). */
function saturation(tf: number, norm: number): number {
	return tf > 0 ? (tf * (BM25_K1 + 1)) / (tf + BM25_K1 * norm) : 0;
}

/** Filters and exclusions of a query re-written as query syntax, to scope each facet's search the same way. */
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

/** What every section is scored against. */
interface ScoringContext {
	facets: readonly Facet[];
	keys: readonly KeyWord[][];
	allKeys: readonly KeyWord[];
	counter: TermCounter;
	/** Some facet has two CJK key words in a row (then section texts are checked for them side by side). */
	adjacency: boolean;
}

/** Per-note facts shared by its sections. */
interface LoadedNote {
	path: string;
	text: string;
	meta: CachedMetadata | null;
	/** Index terms of title, aliases and tags. */
	metaTerms: Set<string>;
	/** Per facet: the note's search score relative to the top hit (0–1). */
	priors: number[];
	/** Every quotable unit of the note. */
	units: QuoteUnit[];
}

/**
 * Find, grade and rank the sections that answer `facets` (see the module comment).
 * `searchText` is the query without its references; `scope` its filters as syntax.
 */
export async function retrieve(source: NoteSource, index: SearchIndex, searchText: string, scope: string, facets: readonly Facet[], refs: readonly LinkRef[], options: RetrieveOptions): Promise<Retrieval | { error: string }> {
	const limitations = new Set<string>();
	// Per note, its relative search score for each facet: the whole query's search counts half
	// for every facet, a facet's own search fully for that facet.
	const priors = new Map<string, number[]>();
	const order: string[] = [];
	const take = (r: SearchResult, facet: number | null): void => {
		const top = r.results[0]?.score ?? 0;
		for (const l of r.limitations) if (!l.startsWith('Showing ') && !l.startsWith('No keyword index')) limitations.add(l);
		for (const hit of r.results) {
			const rel = top > 0 ? hit.score / top : 0;
			let list = priors.get(hit.path);
			if (!list) {
				order.push(hit.path);
				priors.set(hit.path, (list = facets.map(() => 0)));
			}
			for (let i = 0; i < list.length; i++) {
				const p = facet === null ? (facets.length > 1 ? rel / 2 : rel) : i === facet ? rel : 0;
				list[i] = Math.max(list[i], p);
			}
		}
	};
	const expansions = new Map<string, QueryWord[]>();
	const collect = (r: SearchResult): void => {
		for (const e of r.terms.expanded) {
			if (e.from === null) continue;
			const w = expansionWord(e.text);
			if (!w) continue;
			const list = expansions.get(e.from) ?? [];
			if (!list.some((x) => x.text === w.text)) list.push(w);
			expansions.set(e.from, list);
		}
	};
	const strong: string[] = [];
	if (searchText.trim() !== '') {
		const main = await search(index, searchText, MAIN_LIMIT, source);
		if (main.status === 'failed') return { error: main.error ?? 'query: the search failed' };
		take(main, null);
		collect(main);
		for (const hit of main.results.slice(0, STRONG_HITS)) if (hit.tier !== 'filter') strong.push(hit.path);
		if (facets.length > 1) {
			for (const [i, f] of facets.entries()) {
				const r = await search(index, `${f.text} ${scope}`.trim(), FACET_LIMIT, source);
				if (r.status === 'failed') continue;
				take(r, i);
				collect(r);
			}
		}
	}
	const keys: KeyWord[][] = facets.map((f) => weighKeys(index, f.words, expansions));
	const allKeys: KeyWord[] = [];
	for (const list of keys) for (const k of list) if (!allKeys.some((x) => x.word.text === k.word.text)) allKeys.push(k);
	const ctx: ScoringContext = { facets, keys, allKeys, counter: new TermCounter(neededTerms(allKeys)), adjacency: keys.some((list) => list.some((k, j) => j > 0 && isCjkWord(k.word.text) && isCjkWord(list[j - 1].word.text))) };

	const excluded: ExcludedNote[] = [];
	const unreadable: { path: string; reason: string }[] = [];
	const loaded = new Map<string, LoadedNote | null>();
	const load = async (path: string): Promise<LoadedNote | null> => {
		if (loaded.has(path)) return loaded.get(path) ?? null;
		const meta = source.getMetadata(path);
		const why = exclusionOf(meta);
		if ((why === 'draft' && !options.includeDrafts) || (why === 'archived' && !options.includeArchived)) {
			excluded.push({ path, reason: why });
			loaded.set(path, null);
			return null;
		}
		let text: string;
		try {
			text = await source.read(path);
		} catch (e) {
			unreadable.push({ path, reason: `unreadable: ${e instanceof Error ? e.message : String(e)}` });
			loaded.set(path, null);
			return null;
		}
		const label = [titleOf(path, meta), ...(parseFrontMatterAliases(meta?.frontmatter) ?? []), ...(meta ? getAllTags(meta) : []).map((t) => t.replace(/^#/, '').replace(/\//g, ' '))];
		const note: LoadedNote = { path, text, meta, metaTerms: new Set(termsOf(label.join('\n'))), priors: priors.get(path) ?? facets.map(() => 0), units: noteUnits(text, meta) };
		loaded.set(path, note);
		return note;
	};

	// Sections named in the query come first, in the order written.
	const unresolved: LinkRef[] = [];
	const pinned: Candidate[] = [];
	for (const ref of refs) {
		const targets = await resolveRef(source, ref);
		if (targets.length === 0) {
			unresolved.push(ref);
			continue;
		}
		for (const t of targets) {
			const note = await load(t.path);
			if (!note) continue;
			if (t.section === null) {
				if (!priors.has(t.path)) order.push(t.path);
				note.priors = facets.map(() => 1);
				priors.set(t.path, note.priors);
				continue;
			}
			const c = sectionCandidate(note, t.section, ctx);
			if (c && !pinned.some((p) => p.path === c.path && p.section.start === c.section.start && p.section.end === c.section.end)) {
				c.pinned = true;
				pinned.push(c);
			}
		}
	}

	const scored: Candidate[] = [];
	for (const path of order) {
		const note = await load(path);
		if (!note) continue;
		for (const section of sectionsOf(note.text, note.meta)) {
			const c = sectionCandidate(note, section, ctx);
			if (c) scored.push(c);
		}
	}

	// The link neighbourhood: notes linked with the best hits, sections linked from the best sections.
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
			const hash = link.link.indexOf('#');
			const linkpath = link.link.slice(0, hash);
			const target = linkpath === '' ? c.path : source.resolveLink(linkpath, c.path);
			if (target === null || !target.toLowerCase().endsWith('.md')) continue;
			let note = loaded.get(target) ?? null;
			if (!loaded.has(target)) {
				note = await load(target);
				if (note) for (const section of sectionsOf(note.text, note.meta)) {
					const extra = sectionCandidate(note, section, ctx);
					if (extra) scored.push(extra);
				}
			}
			if (!note) continue;
			const span = subpathSection(note.text, note.meta, link.link.slice(hash));
			if (!span) continue;
			const hit = scored.find((s) => s.path === target && s.section.start <= span.start && span.start < s.section.end);
			if (hit && hit !== c) boosted.add(hit);
		}
	}
	for (const c of boosted) c.score *= 1 + NEIGHBOUR_BOOST;

	const kept = scored.filter((c) => gradeRank(c.best) > 0 && !pinned.some((p) => p.path === c.path && p.section.start === c.section.start));
	const byRank = (a: Candidate, b: Candidate): number => gradeRank(b.best) - gradeRank(a.best) || b.score - a.score || a.path.localeCompare(b.path) || a.section.start - b.section.start;
	kept.sort(byRank);
	// Each facet's best section goes first, so a small budget still covers every sub-question.
	const head: Candidate[] = [];
	facets.forEach((_, i) => {
		const pick = kept.find((c) => c.grades[i].grade === 'relevant' && !head.includes(c)) ?? kept.find((c) => c.grades[i].grade === 'partial' && !head.includes(c));
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
	return { candidates: ranked, keys, excluded, unresolved, unreadable, limitations: [...limitations] };
}

/** Run one ranked search for candidates (no backlinks: the pack does not show them). */
async function search(index: SearchIndex, text: string, limit: number, source: NoteSource): Promise<SearchResult> {
	return rankedSearch(index, text, { limit, withBacklinks: false, source });
}

/** A word of Han or kana only (adjacency is checked for these; spaced scripts rarely write question words side by side). */
function isCjkWord(text: string): boolean {
	return /^[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\u30fc]+$/u.test(text);
}

/** The index terms any key word (or expansion) is made of: the only ones worth counting in a section. */
export function neededTerms(keys: readonly KeyWord[]): Set<string> {
	const out = new Set<string>();
	for (const k of keys) for (const w of [k.word, ...k.expansions]) for (const alt of w.alts) for (const t of alt) out.add(t);
	return out;
}

/** Grade and score one section of a loaded note; null when it has nothing to quote. */
function sectionCandidate(note: LoadedNote, section: NoteSection, ctx: ScoringContext): Candidate | null {
	const units = unitsIn(note.units, section);
	if (units.length === 0) return null;
	// Prose and link text apart (prose.ts): link text holds a word only weakly.
	const counts = new Map<string, number>();
	const linkCounts = new Map<string, number>();
	let length = 0;
	const prose: string[] = [];
	for (const u of units) {
		const r = readerText(note.text.slice(u.start, u.end));
		prose.push(r.prose);
		length += ctx.counter.count(r.prose, counts);
		if (r.links !== '') length += ctx.counter.count(r.links, linkCounts);
	}
	const headingCounts = new Map<string, number>();
	if (section.heading !== null) {
		const h = readerText(section.heading);
		ctx.counter.count(h.prose, headingCounts);
		if (h.links !== '') ctx.counter.count(h.links, linkCounts);
	}
	const headingTerms = new Set(headingCounts.keys());
	const proseTerms = new Set([...counts.keys(), ...headingTerms]);
	const terms = new Set([...proseTerms, ...linkCounts.keys()]);
	const grades = ctx.facets.map((_, i) => gradeFacet(proseTerms, ctx.keys[i], terms));
	let best: Grade = 'off-topic';
	for (const g of grades) if (gradeRank(g.grade) > gradeRank(best)) best = g.grade;
	const norm = 1 - BM25_B + BM25_B * (length / AVERAGE_SECTION_TOKENS);
	const flat = ctx.adjacency ? normalizeText(prose.join('\n')) : '';
	const perFacet = ctx.keys.map((keys, i) => {
		let s = 0;
		keys.forEach((k, j) => {
			s += k.idf * (saturation(keyCount(counts, k), norm) + LINK_WEIGHT * saturation(keyCount(linkCounts, k), norm));
			if (holdsKeyWord(headingTerms, k)) s += HEADING_WEIGHT * k.idf;
			if (holdsKeyWord(note.metaTerms, k)) s += META_WEIGHT * k.idf;
			// CJK words written next to each other as in the question (创建链接, 添加标签).
			const next = keys[j + 1];
			if (next !== undefined && flat !== '' && isCjkWord(k.word.text) && isCjkWord(next.word.text) && flat.includes(k.word.text + next.word.text)) s += ADJACENT_WEIGHT * (k.idf + next.idf);
		});
		return s * (1 + PRIOR_WEIGHT * (note.priors[i] ?? 0));
	});
	const strongest = Math.max(0, ...perFacet);
	const score = strongest + OTHER_FACETS_WEIGHT * (perFacet.reduce((a, b) => a + b, 0) - strongest);
	return { path: note.path, text: note.text, meta: note.meta, section, units, terms, grades, best, score, pinned: false };
}

/** The notes and spans a reference names (a bare `^id` may name blocks in several notes). */
async function resolveRef(source: NoteSource, ref: LinkRef): Promise<{ path: string; section: NoteSection | null }[]> {
	if (ref.linkpath === '') {
		if (!ref.subpath.startsWith('#^')) return [];
		const out: { path: string; section: NoteSection | null }[] = [];
		const id = ref.subpath.slice(2).toLowerCase();
		for (const path of source.listNotes()) {
			const meta = source.getMetadata(path);
			if (!meta?.blocks || !(id in meta.blocks)) continue;
			const text = await source.read(path).catch(() => null);
			const span = text === null ? null : subpathSection(text, meta, ref.subpath);
			if (span) out.push({ path, section: span });
			if (out.length >= MAX_BLOCK_MATCHES) break;
		}
		return out;
	}
	let path = source.resolveLink(ref.linkpath, '');
	if (path === null || !path.toLowerCase().endsWith('.md')) {
		const found = findNote(source, ref.linkpath);
		path = found.kind === 'found' ? found.path : null;
	}
	if (path === null) return [];
	if (ref.subpath === '') return [{ path, section: null }];
	const text = await source.read(path).catch(() => null);
	if (text === null) return [];
	const span = subpathSection(text, source.getMetadata(path), ref.subpath);
	return span ? [{ path, section: span }] : [];
}
