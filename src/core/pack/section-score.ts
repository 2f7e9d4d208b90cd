/**
 * How one section of a candidate note scores and grades against the pack's facets (the formula
 * is in retrieve.ts's module comment): prose and link-text counts, heading and title words,
 * CJK words side by side, the note's search prior.
 */
import type { CachedMetadata } from '../metadata';
import { normalizeText } from '../search/tokenize';
import type { Facet } from './facets';
import { gradeFacet, gradeRank, holdsKeyWord, type FacetGrade, type Grade, type KeyWord } from './grade';
import { LINK_WEIGHT, readerText } from './prose';
import type { TermCounter } from './terms';
import { unitsIn, type NoteSection, type QuoteUnit } from './sections';

const BM25_K1 = 1.2; // why: the usual BM25 saturation; the third mention of a word adds little.
const BM25_B = 0.75; // why: the usual length normalisation, so a long section does not win on length alone.
/** Typical section length in estimated tokens, for BM25 length normalisation (fixed, so scores compare across queries). */
const AVERAGE_SECTION_TOKENS = 150; // why: a few short paragraphs, about the median leaf section of the help vaults.
const HEADING_WEIGHT = 0.5; // why: a heading naming the word says the section is about it, short of the words themselves.
const META_WEIGHT = 0.3; // why: title/tag/alias matches guide retrieval but are not evidence (seed rule 5).
const ADJACENT_WEIGHT = 0.5; // why: two question words written together (创建链接) are the question's own phrase, worth half their weight again.
const OTHER_FACETS_WEIGHT = 0.25; // why: a section scores by the facet it answers best; loose hits for other facets only break ties.
const PRIOR_WEIGHT = 0.25; // why: the note's whole-text rank breaks near-ties between sections, never overrides them.

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

/** What every section is scored against. */
export interface ScoringContext {
	facets: readonly Facet[];
	keys: readonly KeyWord[][];
	allKeys: readonly KeyWord[];
	counter: TermCounter;
	/** Some facet has two CJK key words in a row (then section texts are checked for them side by side). */
	adjacency: boolean;
}

/** Per-note facts shared by its sections. */
export interface LoadedNote {
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

/** A word of Han or kana only (adjacency is checked for these; spaced scripts rarely write question words side by side). */
export function isCjkWord(text: string): boolean {
	return /^[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\u30fc]+$/u.test(text);
}

/** The index terms any key word (or expansion) is made of: the only ones worth counting in a section. */
export function neededTerms(keys: readonly KeyWord[]): Set<string> {
	const out = new Set<string>();
	for (const k of keys) for (const w of [k.word, ...k.expansions]) for (const alt of w.alts) for (const t of alt) out.add(t);
	return out;
}

/** Grade and score one section of a loaded note; null when it has nothing to quote. */
export function sectionCandidate(note: LoadedNote, section: NoteSection, ctx: ScoringContext): Candidate | null {
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
