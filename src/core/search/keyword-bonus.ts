/**
 * Bonus points added to ranked scores: the keyword-index note (phase A keyword lines, phase B
 * entry lines, as the seed says) and exact names — a run of query words that is a note's title,
 * file name or alias, unstemmed.
 */
import { canonicalKey, querySpans, type Expansion } from './expansion';
import type { SearchIndex } from './search-index';
import { foldWord, normalizeText, type QueryWord } from './tokenize';

const KEYWORD_A_FACTOR = 1.8; // why: a curated keyword line is worth an alias hit: BM25 of tf=1 in the aliases field ≈ 1.8 × idf.
const KEYWORD_B_FACTOR = 1.0; // why: a substring hit in an entry line is weaker evidence than a keyword line (seed: 30 vs 35).

/** Points per bonus: added to the note's score; `covers` marks the typed words it stands for (bit i = word i). */
export type Bonus = Map<number, { points: number; covers: number }>;

const NAME_FACTOR = 8; // why: twice a title hit (field weight 4 × tf 1): an exact name must beat any stemmed or partial title.
const MIN_NAME_SHARE = 0.5; // why: "movies" in "sci-fi movies" names a category note, but the question is about sci-fi.
const MAX_NAME_NOTES = 3; // why: a phrase naming more notes is a common word, not a name.

/**
 * Exact names: each span of typed words equal (normalised, unstemmed) to a note's title, file
 * name or alias gives that note points — its words' idf × NAME_FACTOR, scaled by the share of
 * the query's weight the span carries, so "lightness" in "how is lightness defined" lifts
 * Lightness.md above notes that only share a stem, while a one-word note name inside a long
 * question does not outweigh notes that answer all of it.
 */
export function nameBonus(si: SearchIndex, typed: readonly QueryWord[]): Bonus {
	const out: Bonus = new Map();
	const idfs = typed.map((w) => si.wordIdf(w));
	const total = idfs.reduce((a, b) => a + b, 0);
	if (total <= 0) return out;
	for (const span of querySpans(typed)) {
		const docs = si.notesWithName(span.key);
		if (docs.length === 0 || docs.length > MAX_NAME_NOTES) continue;
		let idf = 0;
		let covers = 0;
		for (let i = span.from; i < span.from + span.count; i++) {
			idf += idfs[i]!;
			if (i < 30) covers |= 1 << i;
		}
		// A name carrying under half the query's weight is a side topic of the question, not its subject.
		if (idf / total < MIN_NAME_SHARE) continue;
		const points = NAME_FACTOR * idf * (idf / total);
		for (const d of docs) {
			const b = out.get(d) ?? { points: 0, covers: 0 };
			// A note named by several spans keeps its best one (the longest usually): names do not add up.
			if (points > b.points) b.points = points;
			b.covers |= covers;
			out.set(d, b);
		}
	}
	return out;
}

/** Add `from`'s points and covered words into `into` (returned). */
export function mergeBonus(into: Bonus, from: Bonus): Bonus {
	for (const [d, b] of from) {
		const a = into.get(d) ?? { points: 0, covers: 0 };
		into.set(d, { points: a.points + b.points, covers: a.covers | b.covers });
	}
	return into;
}

/** Keyword-index bonuses: phase A (keyword lines) and phase B (entry lines). */
export function keywordBonus(
	si: SearchIndex,
	typed: readonly QueryWord[],
	expansions: readonly Expansion[],
): Map<number, { points: number; covers: number }> {
	const out = new Map<number, { points: number; covers: number }>();
	const kw = si.keywordIndex;
	if (!kw) return out;
	const give = (name: string, points: number, covers: number): void => {
		for (const d of si.notesNamed(name)) {
			const b = out.get(d) ?? { points: 0, covers: 0 };
			b.points += points;
			b.covers |= covers;
			out.set(d, b);
		}
	};
	const lookups: { key: string; idf: number; covers: number; factor: number }[] = [];
	typed.forEach((w, i) =>
		lookups.push({ key: canonicalKey(w.text), idf: si.wordIdf(w), covers: i < 30 ? 1 << i : 0, factor: 1 }),
	);
	for (let i = 0; i + 1 < typed.length; i++) {
		lookups.push({
			key: canonicalKey(typed[i]!.text + typed[i + 1]!.text),
			idf: si.wordIdf(typed[i]!) + si.wordIdf(typed[i + 1]!),
			covers: i + 1 < 30 ? (3 << i) >>> 0 : 0,
			factor: 1,
		});
	}
	for (const e of expansions) {
		const idf = e.words.reduce((s, w) => s + si.wordIdf(w), 0) / e.words.length;
		lookups.push({ key: canonicalKey(e.text), idf, covers: 0, factor: si.settings.expansionWeight });
	}
	const hitA = new Set<string>();
	for (const l of lookups) {
		for (const name of kw.keywords.get(l.key) ?? []) {
			give(name, KEYWORD_A_FACTOR * l.idf * l.factor, l.covers);
			hitA.add(name.toLowerCase());
		}
	}
	typed.forEach((w, i) => {
		const needle = foldWord(normalizeText(w.text));
		if (needle.length < 2) return;
		for (const e of kw.entries) {
			if (hitA.has(e.name.toLowerCase())) continue;
			const fieldHits = e.fields.filter((f) => f.includes(needle)).length;
			if (fieldHits > 0)
				give(e.name, KEYWORD_B_FACTOR * si.wordIdf(w) * (1 + 0.25 * (fieldHits - 1)), i < 30 ? 1 << i : 0);
		}
	});
	return out;
}
