/** Points from the keyword-index note: phase A (keyword lines) and phase B (entry lines) of the seed. */
import { canonicalKey, type Expansion } from './expansion';
import type { SearchIndex } from './search-index';
import { foldWord, normalizeText, type QueryWord } from './tokenize';

const KEYWORD_A_FACTOR = 1.8; // why: a curated keyword line is worth an alias hit: BM25 of tf=1 in the aliases field ≈ 1.8 × idf.
const KEYWORD_B_FACTOR = 1.0; // why: a substring hit in an entry line is weaker evidence than a keyword line (seed: 30 vs 35).

/** Keyword-index bonuses: phase A (keyword lines) and phase B (entry lines). */
export function keywordBonus(si: SearchIndex, typed: readonly QueryWord[], expansions: readonly Expansion[]): Map<number, { points: number; covers: number }> {
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
	typed.forEach((w, i) => lookups.push({ key: canonicalKey(w.text), idf: si.wordIdf(w), covers: i < 30 ? 1 << i : 0, factor: 1 }));
	for (let i = 0; i + 1 < typed.length; i++) {
		lookups.push({ key: canonicalKey(typed[i].text + typed[i + 1].text), idf: si.wordIdf(typed[i]) + si.wordIdf(typed[i + 1]), covers: i + 1 < 30 ? (3 << i) >>> 0 : 0, factor: 1 });
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
			if (fieldHits > 0) give(e.name, KEYWORD_B_FACTOR * si.wordIdf(w) * (1 + 0.25 * (fieldHits - 1)), i < 30 ? 1 << i : 0);
		}
	});
	return out;
}
