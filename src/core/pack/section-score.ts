/**
 * How one section of a candidate note scores and grades against the pack's facets (the formula
 * is in retrieve.ts's module comment): prose and link-text counts, heading and title words,
 * CJK words side by side, the note's search prior.
 */
import type { CachedMetadata } from '../metadata';
import { normalizeText } from '../search/tokenize';
import type { Facet } from './facets';
import { gradeFacet, gradeRank, holdsKeyWord, type FacetGrade, type Grade, type KeyWord } from './grade';
import { isPointer, isQuestion, LINK_WEIGHT, linkTargets, mayAskOrPoint, readerText } from './prose';
import { sentencesOf } from './quotes';
import type { TermCounter } from './terms';
import { unitsIn, type NoteSection, type QuoteUnit } from './sections';

const BM25_K1 = 1.2; // why: the usual BM25 saturation; the third mention of a word adds little.
const BM25_B = 0.75; // why: the usual length normalisation, so a long section does not win on length alone.
/** Typical section length in estimated tokens, for BM25 length normalisation (fixed, so scores compare across queries). */
const AVERAGE_SECTION_TOKENS = 150; // why: a few short paragraphs, about the median leaf section of the help vaults.
const HEADING_WEIGHT = 0.5; // why: a heading naming the word says the section is about it, short of the words themselves.
const META_WEIGHT = 0.3; // why: title/tag/alias matches guide retrieval but are not evidence (seed rule 5).
const ADJACENT_WEIGHT = 0.5; // why: two question words written together (创建链接) are the question's own phrase, worth half their weight again.
const HEADING_PHRASE_WEIGHT = 1; // why: a heading holding every key word names the question itself ("Difference between A and B"): worth the words' whole weight again, so it outranks long sections that merely repeat them.
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
	/** Link targets of the section's pointer sentences, when it is a signpost for some facet (else empty). */
	pointers: string[];
	/** Per facet: whether the section asks it (heading, questions, pointers) without answering it. */
	signposts: boolean[];
	/** Per facet: the section's score for that facet alone (`score` is the best of these plus a share of the rest). */
	facetScores: number[];
	/** Reached by following a signpost's pointer (links.ts): relevant on the signpost's word, not its own. */
	followed?: boolean;
	/** Facets whose asked term is this note's title or alias (defining.ts): the section is packed first for them. */
	defining?: number[];
	/** Index terms of the name that made the note defining (a quote under that name holds them). */
	nameTerms?: string[];
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
	/** Index terms of the title and of each alias, one list per name. */
	nameTerms: string[][];
	/** The terms of the names that are the asked term (every term a key word's), computed once per pack: in the note's own body they are evidence, even as link text. */
	ownTerms?: Set<string>;
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
	for (const k of keys)
		for (const w of [k.word, ...k.expansions]) for (const alt of w.alts) for (const t of alt) out.add(t);
	return out;
}

/** What a section's units say, apart: evidence (prose, code, own-title link words), link text, and what its questions and pointers ask about. */
interface SectionTexts {
	/** Term counts of evidence: statements' prose, quoted code, and the note's own title words wherever they are written. */
	counts: Map<string, number>;
	/** Term counts of link text in statements, and of everything in questions and pointers. */
	linkCounts: Map<string, number>;
	/** Terms of the prose of question and pointer sentences (what they ask about, never evidence). */
	asked: Set<string>;
	/** Link targets written in pointer sentences. */
	pointers: string[];
	/** Whether the section has a question or pointer sentence. */
	asking: boolean;
	/** Evidence prose, for adjacency checks. */
	prose: string[];
	length: number;
}

/** Count a statement's link text: the note's own title and alias words count as evidence (never "mere mentions" in its own body), the rest as link text. */
function countLinks(links: string, note: LoadedNote, ctx: ScoringContext, out: SectionTexts): void {
	const found = new Map<string, number>();
	out.length += ctx.counter.count(links, found);
	const own = ownTerms(note, ctx);
	for (const [t, n] of found) {
		const into = own.has(t) ? out.counts : out.linkCounts;
		into.set(t, (into.get(t) ?? 0) + n);
	}
}

/**
 * The note's names that are the asked term: a title or alias whose every index term is a key
 * word's term ("Lightness" for "how is lightness defined"). Only such a name's words count as
 * evidence in the note's own link text — not a name that merely shares a word or a CJK bigram
 * with the question (バックリンク "backlink" is not リンク "link").
 */
function ownTerms(note: LoadedNote, ctx: ScoringContext): Set<string> {
	if (note.ownTerms) return note.ownTerms;
	const asked = neededTerms(ctx.allKeys);
	const own = new Set<string>();
	for (const name of note.nameTerms)
		if (name.length > 0 && name.every((t) => asked.has(t))) for (const t of name) own.add(t);
	note.ownTerms = own;
	return own;
}

/** Split a section's units into evidence, link text and questions/pointers (see {@link SectionTexts}). */
function sectionTexts(note: LoadedNote, units: readonly QuoteUnit[], ctx: ScoringContext): SectionTexts {
	const out: SectionTexts = {
		counts: new Map(),
		linkCounts: new Map(),
		asked: new Set(),
		pointers: [],
		asking: false,
		prose: [],
		length: 0,
	};
	const statement = (text: string, r = readerText(text)): void => {
		out.prose.push(r.prose);
		out.length += ctx.counter.count(r.prose, out.counts);
		if (r.links !== '') countLinks(r.links, note, ctx, out);
	};
	for (const u of units) {
		const text = note.text.slice(u.start, u.end);
		if (u.kind === 'code') {
			out.prose.push(text);
			out.length += ctx.counter.count(text, out.counts);
			continue;
		}
		// Only a unit with a question mark or a link can hold a question or a pointer: skip segmenting the rest.
		const split = readerText(text);
		if (u.kind === 'row' || !mayAskOrPoint(text, split)) {
			statement(text, split);
			continue;
		}
		for (const s of sentencesOf(note.text, [u])) {
			const sentence = note.text.slice(s.start, s.end);
			const pointer = isPointer(sentence);
			if (!pointer && !isQuestion(sentence)) {
				statement(sentence);
				continue;
			}
			out.asking = true;
			if (pointer) out.pointers.push(...linkTargets(sentence));
			const r = readerText(sentence);
			const asked = new Map<string, number>();
			out.length += ctx.counter.count(r.prose, asked);
			for (const [t, n] of asked) {
				out.asked.add(t);
				out.linkCounts.set(t, (out.linkCounts.get(t) ?? 0) + n);
			}
			if (r.links !== '') out.length += ctx.counter.count(r.links, out.linkCounts);
		}
	}
	return out;
}

/**
 * The grade of a section for one facet: relevant on evidence and heading, as before — except in
 * a section that asks or points (`asks`: it has a question or pointer sentence): there the
 * heading completes the evidence but cannot stand in for it (a heading over "What do we know
 * about X? The facts are in [[Y]]" says what the section asks, not what is known), so with no
 * key word in its statements the heading's words count as link text.
 */
function gradeSection(
	evidence: ReadonlySet<string>,
	heading: ReadonlySet<string>,
	all: ReadonlySet<string>,
	keys: readonly KeyWord[],
	asks: boolean,
): FacetGrade {
	const own = !asks || keys.some((k) => holdsKeyWord(evidence, k));
	return gradeFacet(own ? new Set([...evidence, ...heading]) : evidence, keys, all);
}

/** Grade and score one section of a loaded note; null when it has nothing to quote. */
export function sectionCandidate(note: LoadedNote, section: NoteSection, ctx: ScoringContext): Candidate | null {
	const units = unitsIn(note.units, section);
	if (units.length === 0) return null;
	// Evidence, link text, and questions/pointers apart (prose.ts): only evidence makes a section relevant.
	const { counts, linkCounts, asked, pointers, prose, length, asking } = sectionTexts(note, units, ctx);
	const headingCounts = new Map<string, number>();
	if (section.heading !== null) {
		const h = readerText(section.heading);
		ctx.counter.count(h.prose, headingCounts);
		if (h.links !== '') ctx.counter.count(h.links, linkCounts);
	}
	const headingTerms = new Set(headingCounts.keys());
	const evidence = new Set(counts.keys());
	const terms = new Set([...evidence, ...headingTerms, ...linkCounts.keys()]);
	const grades = ctx.keys.map((keys) => gradeSection(evidence, headingTerms, terms, keys, asking));
	let best: Grade = 'off-topic';
	for (const g of grades) if (gradeRank(g.grade) > gradeRank(best)) best = g.grade;
	// What the section asks about (heading, questions, pointers): a signpost whose pointers are followed (retrieve.ts).
	const askedTerms = new Set([...evidence, ...headingTerms, ...asked]);
	const signposts =
		pointers.length > 0
			? ctx.keys.map(
					(keys, i) => grades[i]!.grade !== 'relevant' && gradeFacet(askedTerms, keys).grade === 'relevant',
				)
			: [];
	const norm = 1 - BM25_B + BM25_B * (length / AVERAGE_SECTION_TOKENS);
	const flat = ctx.adjacency ? normalizeText(prose.join('\n')) : '';
	const perFacet = ctx.keys.map((keys, i) => {
		let s = 0;
		keys.forEach((k, j) => {
			s +=
				k.idf *
				(saturation(keyCount(counts, k), norm) + LINK_WEIGHT * saturation(keyCount(linkCounts, k), norm));
			if (holdsKeyWord(headingTerms, k)) s += HEADING_WEIGHT * k.idf;
			if (holdsKeyWord(note.metaTerms, k)) s += META_WEIGHT * k.idf;
			// CJK words written next to each other as in the question (创建链接, 添加标签).
			const next = keys[j + 1];
			if (
				next !== undefined &&
				flat !== '' &&
				isCjkWord(k.word.text) &&
				isCjkWord(next.word.text) &&
				flat.includes(k.word.text + next.word.text)
			)
				s += ADJACENT_WEIGHT * (k.idf + next.idf);
		});
		if (keys.length > 1 && keys.every((k) => holdsKeyWord(headingTerms, k)))
			s += HEADING_PHRASE_WEIGHT * keys.reduce((sum, k) => sum + k.idf, 0);
		return s * (1 + PRIOR_WEIGHT * (note.priors[i] ?? 0));
	});
	const strongest = Math.max(0, ...perFacet);
	const score = strongest + OTHER_FACETS_WEIGHT * (perFacet.reduce((a, b) => a + b, 0) - strongest);
	return {
		path: note.path,
		text: note.text,
		meta: note.meta,
		section,
		units,
		terms,
		grades,
		best,
		score,
		pinned: false,
		pointers: signposts.some(Boolean) ? pointers : [],
		signposts,
		facetScores: perFacet,
	};
}
