/**
 * The grading rule of context packs, per sub-question (facet) and section — deterministic, and
 * simple enough to state in one line of the README:
 *
 *   share = (idf of the facet's key words the section's prose holds) / (idf of all its key words)
 *   linked = the same, counting key words held only as link text too
 *   relevant when share ≥ 0.6, partial when linked ≥ 0.3, off-topic below.
 *
 * Prose is the heading and the quotable body outside link syntax; link text is the words
 * inside it (wikilinks, Markdown links, URLs, inline tags: prose.ts). So a section whose words
 * for a facet are only link text ("Still open: [[research/copilot-data-handling]]") is at most
 * partial: it points at the topic, it does not state anything about it (seed rule 5).
 *
 * "Holds" means the text (never frontmatter) contains every index term of the word, or of one
 * of its expansions (a synonym, or the title/alias of the note the word names), exactly as the
 * ranked search matches words. Weighting by idf makes a
 * rare word count more than a word every note has (笔记 "note" in a notes app's help). A word
 * the vault does not contain at all weighs the mean of the facet's other words: it is missing
 * everywhere, and a filler ("work" in "how does sync work") must not sink the whole facet.
 */
import type { QueryWord } from '../search/tokenize';

/** The three grades of the seed; packs keep the first two. */
export type Grade = 'relevant' | 'partial' | 'off-topic';

/** Share of the facet's weight from which a section is relevant. */
export const RELEVANT_SHARE = 0.6; // why: most of the question's weight; a 2-word facet needs both words unless one is far rarer.
/** Share from which a section is partial. */
export const PARTIAL_SHARE = 0.3; // why: at least one real (non-ubiquitous) word of the question, so a partial section is still on topic.

/** A key word of a facet, with its weight and the words that stand in for it. */
export interface KeyWord {
	word: QueryWord;
	/** Inverse document frequency in the index (words absent from the vault count as rare). */
	idf: number;
	/** Expansions (synonyms, aliases) that count as the word being present. */
	expansions: QueryWord[];
	/** False when no note of the vault holds the word (its idf is then a stand-in). */
	known?: boolean;
}

/** The grade of one section for one facet, with the words behind it. */
export interface FacetGrade {
	grade: Grade;
	/** idf-weighted share of the facet's key words present in prose (0–1). */
	share: number;
	/** The same share, counting key words present only as link text too (≥ `share`). */
	linkedShare: number;
	/** Key words present, in prose or link text (as typed). */
	present: string[];
	/** The present key words met only as link text (as typed). */
	linkOnly: string[];
	/** Key words absent (as typed). */
	missing: string[];
}

/** Whether a set of index terms holds a query word (every term of one alternative). */
export function holdsWord(terms: ReadonlySet<string>, word: QueryWord): boolean {
	return word.alts.some((alt) => alt.length > 0 && alt.every((t) => terms.has(t)));
}

/** Whether a set of index terms holds a key word or one of its expansions. */
export function holdsKeyWord(terms: ReadonlySet<string>, key: KeyWord): boolean {
	return holdsWord(terms, key.word) || key.expansions.some((e) => holdsWord(terms, e));
}

/**
 * Grade one section against one facet's key words: `prose` holds the index terms of its
 * heading and prose, `all` those of its prose and link text together (default: `prose`, a
 * section without links). Relevant needs the prose share; link text only lifts to partial.
 */
export function gradeFacet(
	prose: ReadonlySet<string>,
	keys: readonly KeyWord[],
	all: ReadonlySet<string> = prose,
): FacetGrade {
	let total = 0;
	let held = 0;
	let linked = 0;
	const present: string[] = [];
	const linkOnly: string[] = [];
	const missing: string[] = [];
	for (const k of keys) {
		total += k.idf;
		if (holdsKeyWord(prose, k)) {
			held += k.idf;
			present.push(k.word.text);
		} else if (all !== prose && holdsKeyWord(all, k)) {
			linked += k.idf;
			present.push(k.word.text);
			linkOnly.push(k.word.text);
		} else missing.push(k.word.text);
	}
	const share = total > 0 ? held / total : 0;
	const linkedShare = total > 0 ? (held + linked) / total : 0;
	// Relevant on prose alone; link text can only lift a section to partial.
	const grade: Grade = share >= RELEVANT_SHARE ? 'relevant' : linkedShare >= PARTIAL_SHARE ? 'partial' : 'off-topic';
	return { grade, share, linkedShare, present, linkOnly, missing };
}

/** The better of two grades. */
export function betterGrade(a: Grade, b: Grade): Grade {
	return gradeRank(a) >= gradeRank(b) ? a : b;
}

/** 2 for relevant, 1 for partial, 0 for off-topic (for sorting). */
export function gradeRank(g: Grade): number {
	return g === 'relevant' ? 2 : g === 'partial' ? 1 : 0;
}
