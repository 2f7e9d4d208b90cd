/**
 * Quote choices of a pack's candidates: each section's sentences scored by the key words their
 * prose holds (link text counts less, questions less still, a code block right after a quoted
 * sentence nearly as much as it), grouped into verbatim quote variants longest first, with the
 * labels a source block shows (section, lines, date).
 */
import type { NoteDate, DateSource } from '../note-date';
import { hasWordsToRead } from '../note-info';
import { holdsKeyWord, type KeyWord } from './grade';
import { isPointer, isQuestion, LINK_WEIGHT, QUESTION_WEIGHT, readerText } from './prose';
import { quoteVariants, sentencesOf, type Sentence } from './quotes';
import type { SourceView } from './render';
import type { Candidate } from './retrieve';
import type { TermCounter } from './terms';
import { LineIndex, sectionLabel, type QuoteUnit } from './sections';

const CODE_AFTER_WEIGHT = 0.9; // why: a block right after a quoted sentence is its example; just below the sentence, so a tight budget keeps the sentence.

/** One quote choice of a candidate, ready to render. */
export interface Variant {
	quotes: string[];
	cutBefore: boolean[];
	lines: [number, number];
}

/** A candidate with its quote choices (longest first) and its label facts. */
export interface Prepared {
	c: Candidate;
	variants: Variant[];
	section: string;
	date: string;
	dateKey: string | null;
	dateSource: DateSource | null;
	/** The whole section's lines, for GAPS. */
	sectionLines: [number, number];
}

/**
 * How well a sentence answers: `prose` is Σ idf of the key words its prose holds, `link` Σ idf
 * of those it holds only as link text (prose.ts).
 */
function sentenceHits(
	sentence: string,
	keys: readonly KeyWord[],
	counter: TermCounter,
): { prose: number; link: number } {
	const { prose, links } = readerText(sentence);
	const proseCounts = new Map<string, number>();
	counter.count(prose, proseCounts);
	const proseTerms = new Set(proseCounts.keys());
	let allTerms: Set<string> | null = null;
	if (links !== '') {
		const linkCounts = new Map<string, number>();
		counter.count(links, linkCounts);
		allTerms = new Set([...proseTerms, ...linkCounts.keys()]);
	}
	const hits = { prose: 0, link: 0 };
	for (const k of keys) {
		if (holdsKeyWord(proseTerms, k)) hits.prose += k.idf;
		else if (allTerms !== null && holdsKeyWord(allTerms, k)) hits.link += k.idf;
	}
	return hits;
}

/**
 * Quote scores of a section's sentences: prose hits + {@link LINK_WEIGHT} × link-only hits,
 * × {@link QUESTION_WEIGHT} for a question. Link text alone never chooses the quotes: when no
 * sentence holds a key word in its prose, every score is 0 and the section is quoted from its
 * opening sentences, like a section reached through a link ("Raised in [[…]]" is an address,
 * the claim before it is what the section says).
 */
function sentenceScores(
	text: string,
	sentences: readonly Sentence[],
	units: readonly QuoteUnit[],
	keys: readonly KeyWord[],
	counter: TermCounter,
): number[] {
	const hits = sentences.map((s) => sentenceHits(text.slice(s.start, s.end), keys, counter));
	if (!hits.some((h) => h.prose > 0)) return sentences.map(() => 0);
	const scores = hits.map((h, i) => {
		const score = h.prose + LINK_WEIGHT * h.link;
		const s = sentences[i]!;
		return isQuestion(text.slice(s.start, s.end)) ? score * QUESTION_WEIGHT : score;
	});
	// Code shows how to do what the sentence before it says: it scores at least nearly as well.
	// Only a whole block right after prose: a long block's lines stand on their own words.
	for (let i = 1; i < scores.length; i++) {
		const u = units[sentences[i]!.unit]!;
		if (u.kind === 'code' && sentences[i]!.start === u.start && units[sentences[i - 1]!.unit]!.kind !== 'code')
			scores[i] = Math.max(scores[i]!, CODE_AFTER_WEIGHT * scores[i - 1]!);
	}
	return scores;
}

/**
 * The sentences a candidate may quote: never one without words to read (a badge, a label over a
 * rule such as `Comment: ---`: note-info.ts `hasWordsToRead`); and a relevant section never
 * quotes a question or a pointer as its evidence (they ask or point, they do not state), unless
 * it has nothing else.
 */
function quotable(c: Candidate): Sentence[] {
	const all = sentencesOf(c.text, c.units).filter(
		(s) => c.units[s.unit]!.kind === 'code' || hasWordsToRead(c.text.slice(s.start, s.end)),
	);
	if (c.best !== 'relevant') return all;
	const said = all.filter((s) => {
		if (c.units[s.unit]!.kind === 'code') return true;
		const t = c.text.slice(s.start, s.end);
		return !isQuestion(t) && !isPointer(t);
	});
	return said.length > 0 ? said : all;
}

/** Quote choices and labels of each candidate; candidates with nothing to quote are dropped. */
export function prepare(
	candidates: readonly Candidate[],
	keys: readonly KeyWord[],
	counter: TermCounter,
	dateOf: (c: Candidate) => NoteDate | null,
): Prepared[] {
	const lineIndexes = new Map<string, LineIndex>();
	const out: Prepared[] = [];
	for (const c of candidates) {
		let lines = lineIndexes.get(c.path);
		if (!lines) lineIndexes.set(c.path, (lines = new LineIndex(c.text)));
		const li = lines;
		const sentences = quotable(c);
		const scores = sentenceScores(c.text, sentences, c.units, keys, counter);
		const variants = quoteVariants(sentences, scores).map((spans): Variant => ({
			quotes: spans.map((s) => c.text.slice(s.start, s.end)),
			cutBefore: spans.map((s) => s.cutBefore),
			lines: [li.lineOf(spans[0]!.start), li.lineOf(spans[spans.length - 1]!.end - 1)],
		}));
		if (variants.length === 0) continue;
		const date = dateOf(c);
		out.push({
			c,
			variants,
			section: sectionLabel(c.section),
			date: date?.date ?? 'undated',
			dateKey: date?.key ?? null,
			dateSource: date?.source ?? null,
			sectionLines: [li.lineOf(c.section.start), li.lineOf(Math.max(c.section.start, c.section.end - 1))],
		});
	}
	return out;
}

/** A prepared candidate as a rendered source. */
export function sourceView(p: Prepared, variant: number, id: string): SourceView {
	const v = p.variants[variant]!;
	return {
		id,
		path: p.c.path,
		section: p.section,
		lines: v.lines,
		date: p.date,
		date_source: p.dateSource,
		quotes: v.quotes,
		cutBefore: v.cutBefore,
		dateKey: p.dateKey,
	};
}
