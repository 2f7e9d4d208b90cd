/** The excerpt of a hit: the best-matching heading section and its first matching line, clipped. */
import { excerptOf } from '../note-info';
import type { ScoredWord } from './rank';
import { foldText, foldWord, normalizeText } from './tokenize';

/** Surface forms to look for in a text when picking the excerpt, with the rarity of their word. */
export function needlesOf(words: readonly ScoredWord[]): { needle: string; weight: number }[] {
	const out: { needle: string; weight: number }[] = [];
	for (const sw of words) {
		const t = foldWord(sw.word.text);
		if (t.length === 0) continue;
		// English stems: look for the stem so "developing" finds "develop…".
		const alt = sw.word.alts[0]!;
		const needle =
			alt.length === 1 && /^[a-z]+$/.test(alt[0]!) && t.startsWith(alt[0]!) ? alt[0]! : t.replace(/…$/, '');
		if (needle !== '' && !out.some((n) => n.needle === needle))
			out.push({ needle, weight: Math.max(0.1, sw.idf) * sw.weight });
	}
	return out;
}

const REPEAT_BONUS = 0.05; // why: distinct words decide the best section; repetitions only break ties.

/**
 * The heading section that best matches (distinct words weighted by rarity, repetitions as a
 * tie-break) and its first matching line, clipped around the match; `line` is that line's
 * 1-based number in the file, so a face opens the note there without reading it again.
 */
export function excerptFrom(
	text: string,
	bodyStart: number,
	needles: readonly { needle: string; weight: number }[],
	chars: number,
): { excerpt: string; section: string | null; line: number } | null {
	const body = text.slice(bodyStart);
	const lines = body.split('\n');
	// Fold the body once rather than line by line; folding keeps line breaks.
	const foldedLines = foldText(normalizeText(body)).split('\n');
	const aligned = foldedLines.length === lines.length;
	let heading: string | null = null;
	let inCode = false;
	let best: { score: number; heading: string | null; line: string; at: number; index: number } | null = null;
	let cur = { score: 0, heading: null as string | null, line: '', at: -1, index: -1, seen: new Set<string>() };
	const close = (): void => {
		if (cur.at >= 0 && (best === null || cur.score > best.score))
			best = { score: cur.score, heading: cur.heading, line: cur.line, at: cur.at, index: cur.index };
	};
	for (let li = 0; li < lines.length; li++) {
		const line = lines[li]!;
		const trimmed = line.trim();
		if (trimmed.startsWith('```')) inCode = !inCode;
		const h = inCode ? null : /^#{1,6}\s+(.*)$/.exec(trimmed);
		if (h) {
			close();
			heading = h[1]!.trim();
			cur = { score: 0, heading, line: '', at: -1, index: -1, seen: new Set() };
			continue;
		}
		const folded = aligned ? foldedLines[li]! : foldText(normalizeText(line));
		for (const n of needles) {
			const at = folded.indexOf(n.needle);
			if (at < 0) continue;
			cur.score += cur.seen.has(n.needle) ? REPEAT_BONUS * n.weight : n.weight;
			cur.seen.add(n.needle);
			if (cur.at < 0) {
				cur.line = line;
				cur.at = at;
				cur.index = li;
			}
		}
	}
	close();
	if (best === null) return null;
	const found: { heading: string | null; line: string; at: number; index: number } = best;
	const from = Math.max(0, found.at - Math.floor(chars / 3));
	return {
		excerpt: `${from > 0 ? '…' : ''}${excerptOf(found.line.slice(from, from + chars), chars)}`,
		section: found.heading,
		line: lineAt(text, bodyStart) + found.index + 1,
	};
}

/** The 0-based file line holding offset `at`. */
function lineAt(text: string, at: number): number {
	let n = 0;
	for (let i = text.indexOf('\n'); i >= 0 && i < at; i = text.indexOf('\n', i + 1)) n++;
	return n;
}
