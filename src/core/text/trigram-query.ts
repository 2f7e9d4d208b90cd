/**
 * What a pattern requires of a text, as trigrams (the technique of Google Code Search): a literal
 * needs every trigram of itself; a regex needs the trigrams of the literals every match must
 * contain (all-of for a sequence, any-of for alternatives). Trigrams are of the index's form of
 * text — NFC, case-folded by {@link foldCase}, CRLF as LF — so one index serves case-sensitive
 * and case-insensitive patterns (a case-sensitive match is also a folded one).
 */
import { foldCase, nfc } from './normalize';

/** A condition on a text's trigrams; `any` is no condition (the text must be scanned). */
export type TrigramQuery =
	| { op: 'any' }
	| { op: 'tri'; key: number }
	| { op: 'and'; subs: TrigramQuery[] }
	| { op: 'or'; subs: TrigramQuery[] };

/** No condition. */
export const ANY: TrigramQuery = { op: 'any' };

/** The hash of the trigram starting at `i` of `s` (3 UTF-16 units): a 32-bit integer, collisions only add candidates. */
export function trigramKey(s: string, i: number): number {
	return (
		(Math.imul(s.charCodeAt(i), 0x9e3779b1) ^
			Math.imul(s.charCodeAt(i + 1), 0x85ebca77) ^
			Math.imul(s.charCodeAt(i + 2), 0xc2b2ae3d)) |
		0
	);
}

/** The form of a text the index holds and patterns are compared to. */
export function indexForm(text: string): string {
	const folded = foldCase(nfc(text));
	return folded.includes('\r') ? folded.replace(/\r\n/g, '\n') : folded;
}

/** Every trigram of an (index-form) string must be present; a string under 3 units requires nothing. */
export function allTrigrams(s: string): TrigramQuery {
	if (s.length < 3) return ANY;
	const keys = new Set<number>();
	for (let i = 0; i + 3 <= s.length; i++) keys.add(trigramKey(s, i));
	return and([...keys].map((key) => ({ op: 'tri', key })));
}

/** All of `subs` (conditions of `any` dropped). */
export function and(subs: TrigramQuery[]): TrigramQuery {
	const kept = subs.flatMap((q) => (q.op === 'any' ? [] : q.op === 'and' ? q.subs : [q]));
	return kept.length === 0 ? ANY : kept.length === 1 ? kept[0]! : { op: 'and', subs: kept };
}

/** Any of `subs` (one `any` makes the whole `any`). */
export function or(subs: TrigramQuery[]): TrigramQuery {
	if (subs.length === 0 || subs.some((q) => q.op === 'any')) return ANY;
	const flat = subs.flatMap((q) => (q.op === 'or' ? q.subs : [q]));
	return flat.length === 1 ? flat[0]! : { op: 'or', subs: flat };
}

/** The condition for a literal substring (case-sensitive or not: the index is folded). */
export function literalQuery(literal: string): TrigramQuery {
	// A CR in the needle may stand before an LF the index form dropped: scan instead.
	return literal.includes('\r') ? ANY : allTrigrams(indexForm(literal));
}

/** The condition for a quoted phrase: each of its words, whitespace between them being free. */
export function phraseQuery(phrase: string): TrigramQuery {
	return and(phrase.split(/\s+/).map((word) => allTrigrams(indexForm(word))));
}
