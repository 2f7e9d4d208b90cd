import { stem } from '../core/search/stem';

/**
 * Highlighting a hit's matched terms in its snippet, with `createSpan` only (no `innerHTML`).
 * A term comes from the hit's `matched_terms` labels ("xss", "front-end (synonym of frontend)",
 * "восстанов… (prefix of восстановить)"): the word before any " (" note, without a trailing "…".
 * An English word matches any word sharing its stem (`developing` marks "development"); other
 * words and CJK match as case-insensitive substrings.
 */

/** One thing to look for in a snippet. */
export interface Needle {
	/** Lower-case text to find. */
	text: string;
	/** Must start a word and extends to the word's end (English stems). */
	wordPrefix: boolean;
}

const MIN_STEM = 3; // why: shorter prefixes mark unrelated words ("an" in "and").

/** The common prefix of a word and its stem (Porter turns "happy" into "happi"). */
function stemPrefix(word: string): string {
	const s = stem(word);
	let n = 0;
	while (n < s.length && n < word.length && s[n] === word[n]) n++;
	return word.slice(0, Math.max(n, Math.min(word.length, MIN_STEM)));
}

/** The needles of a hit's matched-term labels, longest first, deduplicated. */
export function termNeedles(labels: readonly string[]): Needle[] {
	const out = new Map<string, Needle>();
	for (const label of labels) {
		const cut = label.indexOf(' (');
		const word = (cut < 0 ? label : label.slice(0, cut)).replace(/…$/, '').trim().toLowerCase();
		if (word === '') continue;
		const needle: Needle = /^[a-z]{4,}$/.test(word)
			? { text: stemPrefix(word), wordPrefix: true }
			: { text: word, wordPrefix: false };
		if (!out.has(needle.text)) out.set(needle.text, needle);
	}
	return [...out.values()].sort((a, b) => b.text.length - a.text.length);
}

const WORD_CHAR = /[\p{L}\p{N}_]/u;

/** Non-overlapping [start, end) ranges of needles in `text`, in order. */
export function highlightRanges(text: string, needles: readonly Needle[]): [number, number][] {
	const lower = text.toLowerCase();
	// Lower-casing can change a string's length (İ): then offsets would drift, so mark nothing.
	if (lower.length !== text.length || needles.length === 0) return [];
	const ranges: [number, number][] = [];
	for (const needle of needles) {
		let from = 0;
		for (;;) {
			const at = lower.indexOf(needle.text, from);
			if (at < 0) break;
			from = at + 1;
			if (needle.wordPrefix && at > 0 && WORD_CHAR.test(lower[at - 1]!)) continue;
			let end = at + needle.text.length;
			if (needle.wordPrefix) while (end < lower.length && WORD_CHAR.test(lower[end]!)) end++;
			if (ranges.some(([s, e]) => at < e && end > s)) continue;
			ranges.push([at, end]);
		}
	}
	return ranges.sort((a, b) => a[0] - b[0]);
}

/** Appends `text` to `parent` as spans, the matched parts as `span.vault-query-hl`. */
export function renderHighlighted(parent: HTMLElement, text: string, needles: readonly Needle[]): void {
	let at = 0;
	for (const [start, end] of highlightRanges(text, needles)) {
		if (start > at) parent.createSpan({ text: text.slice(at, start) });
		parent.createSpan({ cls: 'vault-query-hl', text: text.slice(start, end) });
		at = end;
	}
	if (at < text.length) parent.createSpan({ text: text.slice(at) });
}
