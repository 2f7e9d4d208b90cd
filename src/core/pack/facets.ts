/**
 * Sub-questions (facets) of a pack query: a question can ask several things at once ("how do I
 * link notes, and how do I add tags?"), and COVERAGE answers each one separately, so a gap in
 * one is not hidden by a good answer to another.
 *
 * Split points, in order:
 * 1. sentence ends and clause punctuation: `?` `!` `;` `,` (comma followed by a space), `. `
 *    (period followed by a space), and their CJK forms `？` `！` `；` `，` `、` `。`, and newlines;
 * 2. clause conjunctions, as whole words: "and" (only when both sides have at least two words,
 *    so "drag and drop" and "tags and links" stay one facet), "as well as", "also"; Chinese 以及,
 *    并且/並且, 而且, 还有/還有, 另外, and 和/与/與/及/跟 when they are a word of their own
 *    (`Intl.Segmenter`) with at least three characters on each side; Japanese および/及び,
 *    ならびに/並びに, そして.
 * Pieces without a key word (only stop words such as "why" or "如何") are dropped; when
 * nothing is left, the whole query is one facet.
 */
import { segmentBounded } from '../segment';
import { analyzeQueryText, CJK_STOP_WORDS, ENGLISH_STOP_WORDS, foldWord, type QueryWord } from '../search/tokenize';

/** At most this many facets: each one costs a COVERAGE line and a search. */
export const MAX_FACETS = 6; // why: six sub-questions is already a long request; more are usually one list.

/** One sub-question: its text and its key words (stop words dropped, duplicates removed). */
export interface Facet {
	text: string;
	words: QueryWord[];
}

const PUNCTUATION_SPLIT = /[?!;？！；，、。\n]+|,\s+|\.\s+/u;
/** Conjunctions that always start a new clause. */
const CLAUSE_WORDS = new Set([
	'以及',
	'并且',
	'並且',
	'而且',
	'还有',
	'還有',
	'另外',
	'および',
	'及び',
	'ならびに',
	'並びに',
	'そして',
]);
/** Single-character CJK "and"s: split only between clauses of three characters or more. */
const SHORT_CJK_AND = new Set(['和', '与', '與', '及', '跟']);
const MIN_CJK_SIDE = 3; // why: 链接和标签 ("links and tags") is one list; 创建链接和添加标签 is two actions.
const MIN_ENGLISH_SIDE = 2; // why: "drag and drop" is one thing; "create links and add tags" is two.
const LEADING_JUNK =
	/^(?:\s|and\b|also\b|as well as\b|plus\b|but\b|以及|并且|並且|而且|还有|還有|另外|そして|および|及び)+/iu;
const TRAILING_JUNK = /(?:\s|\band|\balso|\bor)+$/iu;

let wordSegmenter: Intl.Segmenter | null = null;
function segmenter(): Intl.Segmenter {
	wordSegmenter ??= new Intl.Segmenter('zh', { granularity: 'word' });
	return wordSegmenter;
}

/**
 * Question fillers the search tokenizer keeps (they are fine to rank with) but that must not
 * weigh in grading: 之间 "between" is rarer than 链接 "link" in a notes app's help, so it
 * would otherwise decide whether a section answers "如何在笔记之间创建链接"; likewise "use" in
 * "how should I use categories" would let any section about using anything answer it.
 */
const QUESTION_FILLERS: ReadonlySet<string> = new Set([
	...['之间', '之間', '时候', '時候', '一下', '哪里', '哪裡', '其中', '使用', '用'],
	...['use', 'uses', 'using', 'used', 'way', 'ways', 'work', 'works', 'thing', 'things'],
]);

/** Whether a word is a stop word or filler (it carries no topic). */
function isStopWord(word: QueryWord): boolean {
	const f = foldWord(word.text);
	return ENGLISH_STOP_WORDS.has(f) || CJK_STOP_WORDS.has(f) || QUESTION_FILLERS.has(f);
}

/** The key words of a text: analysed query words, stop words dropped, duplicates removed. */
export function keyWordsOf(text: string): QueryWord[] {
	const out: QueryWord[] = [];
	const seen = new Set<string>();
	for (const w of analyzeQueryText(text)) {
		if (isStopWord(w) || seen.has(w.text)) continue;
		seen.add(w.text);
		out.push(w);
	}
	return out;
}

/** Count of whitespace-separated words. */
function wordCount(text: string): number {
	return text.split(/\s+/).filter((w) => w !== '').length;
}

/** Split on English "and" / "as well as" where both sides are clauses of their own. */
function splitEnglish(piece: string): string[] {
	const parts = piece.split(/\s+(?:and|as well as)\s+/iu);
	if (parts.length === 1) return parts;
	const out: string[] = [parts[0]!];
	for (let i = 1; i < parts.length; i++) {
		const prev = out[out.length - 1]!;
		if (wordCount(prev) >= MIN_ENGLISH_SIDE && wordCount(parts[i]!) >= MIN_ENGLISH_SIDE) out.push(parts[i]!);
		else out[out.length - 1] = `${prev} and ${parts[i]}`;
	}
	return out;
}

/** Split on CJK conjunctions that are words of their own. */
function splitCjk(piece: string): string[] {
	if (!/[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}]/u.test(piece)) return [piece];
	const out: string[] = [];
	let current = '';
	const segments = [...segmentBounded(segmenter(), piece)];
	for (let i = 0; i < segments.length; i++) {
		const s = segments[i]!.segment;
		if (CLAUSE_WORDS.has(s)) {
			out.push(current);
			current = '';
			continue;
		}
		if (SHORT_CJK_AND.has(s)) {
			const rest = segments
				.slice(i + 1)
				.map((x) => x.segment)
				.join('');
			if ([...current.trim()].length >= MIN_CJK_SIDE && [...rest.trim()].length >= MIN_CJK_SIDE) {
				out.push(current);
				current = '';
				continue;
			}
		}
		current += s;
	}
	out.push(current);
	return out;
}

/**
 * The facets of a query's free text, in order (see the module comment for the rule).
 *
 * @example
 * splitFacets('how do I link notes, and how do I add tags?').map((f) => f.text);
 * // ['how do I link notes', 'how do I add tags']
 */
export function splitFacets(text: string): Facet[] {
	const pieces = text
		.split(PUNCTUATION_SPLIT)
		.flatMap(splitEnglish)
		.flatMap(splitCjk)
		.map((p) => p.replace(LEADING_JUNK, '').replace(TRAILING_JUNK, '').trim())
		.filter((p) => p !== '');
	const facets: Facet[] = [];
	const seen = new Set<string>();
	for (const piece of pieces) {
		const words = keyWordsOf(piece);
		if (words.length === 0) continue;
		const key = words.map((w) => w.text).join(' ');
		if (seen.has(key)) continue;
		seen.add(key);
		facets.push({ text: piece, words });
	}
	if (facets.length === 0) {
		const whole = text.trim();
		return whole === '' ? [] : [{ text: whole, words: analyzeQueryText(whole) }];
	}
	if (facets.length > MAX_FACETS) {
		// Fold the tail into the last facet rather than dropping words silently.
		const tail = facets.splice(MAX_FACETS - 1);
		const merged: QueryWord[] = [];
		for (const f of tail) for (const w of f.words) if (!merged.some((m) => m.text === w.text)) merged.push(w);
		facets.push({ text: tail.map((f) => f.text).join('; '), words: merged });
	}
	return facets;
}
