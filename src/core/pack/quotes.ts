/**
 * Verbatim quotes: 1–3 spans per section, each a run of whole sentences copied from the note.
 * Sentences come from `Intl.Segmenter` with sentence granularity (Unicode UAX #29), so `。`,
 * `？`, `！` end Chinese and Japanese sentences as `.`, `?`, `!` end English ones. Line breaks
 * inside a paragraph or list item are soft (a wrapped line does not end a sentence); units
 * (paragraphs, items, quote lines, table rows) always do. A quote is never cut inside a
 * sentence: shortening drops whole sentences, and the pack marks the cut with `[...]`.
 */
import { segmentBounded } from '../segment';
import type { QuoteUnit } from './sections';

/** Sentences picked per section at most (before grouping into spans). */
export const MAX_SENTENCES = 4; // why: enough for a claim and its condition or example; more is a summary, not a quote.
/** Spans per section at most (the seed: 1–3 verbatim spans). */
export const MAX_SPANS = 3;

/** One sentence of a note: offsets into the note's text (trimmed), and the unit it belongs to. */
export interface Sentence {
	start: number;
	end: number;
	unit: number;
}

/** One quote: a run of consecutive whole sentences, and whether sentences were left out before it. */
export interface QuoteSpan {
	start: number;
	end: number;
	/** True when the section's sentences between the previous quote and this one were left out (`[...]`). */
	cutBefore: boolean;
}

/** Inline Markdown whose punctuation is not sentence punctuation: code spans, embeds and links, URLs. */
const OPAQUE = /`[^`]+`|!?\[\[[^\]]*\]\]|!?\[[^\]]*\]\([^)]*\)|\bhttps?:\/\/[^\s<>)\]]+/g;

let sentenceSegmenter: Intl.Segmenter | null = null;
function segmenter(): Intl.Segmenter {
	// One fixed locale: sentence rules for CJK punctuation are the same in every ICU locale, and a
	// fixed one keeps packs identical across machines.
	sentenceSegmenter ??= new Intl.Segmenter('en', { granularity: 'sentence' });
	return sentenceSegmenter;
}

/** Letters or digits left once embeds, link targets and Markdown punctuation are ignored. */
function hasWords(s: string): boolean {
	return /[\p{L}\p{N}]/u.test(s.includes('![') ? s.replace(/!\[\[[^\]]*\]\]|!\[[^\]]*\]\([^)]*\)/g, '') : s);
}

/** A fenced block of at most this many lines is one quote; a longer one is quoted by whole lines. */
export const MAX_CODE_LINES = 12; // why: a typical command example fits whole; a long listing would eat the budget, so its best lines are quoted.

/** A code unit's sentences: the whole block (fences included, so it renders as code), or its non-blank lines inside the fences. */
function codeSentences(text: string, u: QuoteUnit, unit: number, out: Sentence[]): void {
	const raw = text.slice(u.start, u.end);
	const lines = raw.split('\n');
	if (lines.length <= MAX_CODE_LINES) {
		out.push({ start: u.start, end: u.end, unit });
		return;
	}
	let at = u.start;
	lines.forEach((line, i) => {
		const lead = line.length - line.trimStart().length;
		const body = line.trim();
		if (i > 0 && i < lines.length - 1 && body !== '')
			out.push({ start: at + lead, end: at + lead + body.length, unit });
		at += line.length + 1;
	});
}

/** The sentences of the units, in document order; sentences without words (a lone embed) are left out. */
export function sentencesOf(text: string, units: readonly QuoteUnit[]): Sentence[] {
	const out: Sentence[] = [];
	units.forEach((u, unit) => {
		const raw = text.slice(u.start, u.end);
		if (u.kind === 'code') {
			codeSentences(text, u, unit, out);
			return;
		}
		if (u.kind === 'row') {
			if (hasWords(raw)) out.push({ start: u.start, end: u.end, unit });
			return;
		}
		// Same length, so offsets map back one to one: line breaks are soft inside a unit, and
		// Markdown that holds sentence punctuation (`![[embed]]`, `[[File.base]]`, `code`, URLs)
		// reads as one capitalised word, so the segmenter never ends a sentence inside it.
		const flat = raw.replace(/[\r\n]/g, ' ').replace(OPAQUE, (m) => `X${'x'.repeat(m.length - 1)}`);
		for (const seg of segmentBounded(segmenter(), flat)) {
			let s = seg.index;
			let e = seg.index + seg.segment.length;
			while (s < e && /\s/.test(flat[s]!)) s++;
			while (e > s && /\s/.test(flat[e - 1]!)) e--;
			if (e > s && hasWords(raw.slice(s, e))) out.push({ start: u.start + s, end: u.start + e, unit });
		}
	});
	return out;
}

/** Group chosen sentence indices (sorted) into spans of consecutive sentences of one unit. */
function spansOf(sentences: readonly Sentence[], chosen: readonly number[]): QuoteSpan[] {
	const spans: QuoteSpan[] = [];
	let prev = -2;
	for (const i of chosen) {
		const s = sentences[i]!;
		const last = spans[spans.length - 1];
		if (last && i === prev + 1 && sentences[prev]!.unit === s.unit) last.end = s.end;
		else spans.push({ start: s.start, end: s.end, cutBefore: last !== undefined && i !== prev + 1 });
		prev = i;
	}
	return spans;
}

/**
 * Quote choices for one section, longest first: the best-scoring sentences (ties: earlier
 * first) grouped into at most {@link MAX_SPANS} spans, then the same with one sentence fewer,
 * down to the single best sentence. When no sentence scores, the section's opening sentences.
 * Empty when the section has no sentence at all.
 */
export function quoteVariants(sentences: readonly Sentence[], scores: readonly number[]): QuoteSpan[][] {
	if (sentences.length === 0) return [];
	let ranked = sentences.map((_, i) => i).filter((i) => scores[i]! > 0);
	ranked.sort((a, b) => scores[b]! - scores[a]! || a - b);
	// Nothing scores (a section named by reference, or reached through a link): its opening sentences.
	if (ranked.length === 0) ranked = sentences.slice(0, MAX_SENTENCES).map((_, i) => i);
	const variants: QuoteSpan[][] = [];
	const seen = new Set<string>();
	for (let k = Math.min(MAX_SENTENCES, ranked.length); k >= 1; k--) {
		const chosen = ranked.slice(0, k).sort((a, b) => a - b);
		const spans = spansOf(sentences, chosen);
		if (spans.length > MAX_SPANS) continue;
		const key = spans.map((s) => `${s.start}-${s.end}`).join(',');
		if (seen.has(key)) continue;
		seen.add(key);
		variants.push(spans);
	}
	return variants;
}
