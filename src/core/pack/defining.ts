/**
 * What a pack must and must not hold, beyond the score order:
 *
 * - **The defining note.** When a facet names a note by its title or an alias ("What is X?",
 *   "X 是什么？", "how does X work": every key word of the facet is a word of the name, and the
 *   name has at most as many other words as the facet has key words), that note is about the
 *   asked term even when its body never repeats it. Its best section for the facet (when one is
 *   relevant), else its lead section, is graded relevant and packed first.
 * - **The relevance floor.** A section whose only match with a facet is one key word that is not
 *   the facet's rarest (a note on antennas for "spaced" in "what is spaced repetition?") is not
 *   about the question: it never enters the pack for that facet, however much budget is left.
 *   Without the rarest word, the words it does hold must be written together — two of them in
 *   one sentence, or with the section's heading or the note's name: "lokal" in one sentence and
 *   "og" ("and") in another is a stray match for "Lokale og fjernbokse", not a second one.
 */
import { baseName } from '../paths';
import { holdsWord, type KeyWord } from './grade';
import { sentencesOf } from './quotes';
import type { LoadedNote, Candidate } from './section-score';
import type { TermCounter } from './terms';

/** Whether a set of index terms holds a key word itself (its expansions aside). */
function holdsOwn(terms: ReadonlySet<string>, k: KeyWord): boolean {
	return holdsWord(terms, k.word);
}

/** How many terms of `name` are not the facet's: -1 when the name does not hold every key word of the facet. */
function nameFit(name: readonly string[], keys: readonly KeyWord[]): number {
	if (name.length === 0 || keys.length === 0) return -1;
	const set = new Set(name);
	if (!keys.every((k) => holdsOwn(set, k))) return -1;
	const asked = new Set(keys.flatMap((k) => k.word.alts.flat()));
	const extra = name.filter((t) => !asked.has(t)).length;
	return extra <= asked.size ? extra : -1;
}

/** The name of `note` that names a facet best: its terms and how many of them are extra; null when none does. */
export function namingFit(note: LoadedNote, keys: readonly KeyWord[]): { terms: string[]; extra: number } | null {
	let best: { terms: string[]; extra: number } | null = null;
	for (const name of note.nameTerms) {
		const extra = nameFit(name, keys);
		if (extra >= 0 && (best === null || extra < best.extra)) best = { terms: name, extra };
	}
	return best;
}

/**
 * Per facet, the section of the note that names it (fewest extra name words; then the first in
 * search order), graded relevant and marked `defining`. `notes` in search order.
 */
export function markDefining(
	notes: readonly LoadedNote[],
	scored: readonly Candidate[],
	keys: readonly KeyWord[][],
): void {
	keys.forEach((facetKeys, i) => {
		let pick: { note: LoadedNote; terms: string[]; extra: number } | null = null;
		for (const note of notes) {
			const fit = namingFit(note, facetKeys);
			if (fit && (pick === null || fit.extra < pick.extra)) pick = { note, ...fit };
		}
		if (pick === null) return;
		const sections = scored.filter((c) => c.path === pick.note.path);
		if (sections.length === 0) return;
		let section = sections[0]!;
		for (const c of sections) if (c.section.start < section.section.start) section = c;
		for (const c of sections)
			if (
				c.grades[i]!.grade === 'relevant' &&
				(section.grades[i]!.grade !== 'relevant' || c.facetScores[i]! > section.facetScores[i]!)
			)
				section = c;
		section.grades[i] = { ...section.grades[i]!, grade: 'relevant' };
		section.best = 'relevant';
		section.defining = [...(section.defining ?? []), i];
		section.nameTerms = [...new Set([...(section.nameTerms ?? []), ...pick.terms])];
	});
}

/** Whether a set of index terms holds a key word or one of its expansions. */
function holdsAny(terms: ReadonlySet<string>, k: KeyWord): boolean {
	return holdsOwn(terms, k) || k.expansions.some((e) => holdsWord(terms, e));
}

/** Whether two of `held` are written together: in the section's heading and the note's name, or with them in one sentence. */
function heldTogether(c: Candidate, held: readonly KeyWord[], counter: TermCounter): boolean {
	const named = new Map<string, number>();
	counter.count(`${c.section.heading ?? ''}\n${baseName(c.path)}`, named);
	const together = (terms: Map<string, number>): boolean => {
		const set = new Set([...named.keys(), ...terms.keys()]);
		return held.filter((k) => holdsAny(set, k)).length >= 2;
	};
	if (together(new Map())) return true;
	for (const s of sentencesOf(c.text, c.units)) {
		const terms = new Map<string, number>();
		counter.count(c.text.slice(s.start, s.end), terms);
		if (together(terms)) return true;
	}
	return false;
}

/**
 * Whether a section is only a stray match for facet `i`: the facet has two or more key words the
 * vault holds, and the section holds some of them but not the rarest — one alone, or several
 * never written together (see the module comment).
 */
export function strayFor(c: Candidate, keys: readonly KeyWord[], counter: TermCounter): boolean {
	const known = keys.filter((k) => k.known !== false);
	if (known.length < 2) return false;
	const rarest = Math.max(...known.map((k) => k.idf));
	const held = known.filter((k) => holdsAny(c.terms, k));
	if (held.length === 0 || held.some((k) => k.idf >= rarest)) return false;
	return held.length === 1 || !heldTogether(c, held, counter);
}

/** Whether a section enters the pack: pinned, followed from a signpost, defining, or no stray match for some facet it is graded for. */
export function aboveFloor(c: Candidate, keys: readonly KeyWord[][], counter: TermCounter): boolean {
	if (c.pinned || c.followed === true || (c.defining?.length ?? 0) > 0) return true;
	return c.grades.some((g, i) => g.grade !== 'off-topic' && !strayFor(c, keys[i]!, counter));
}
