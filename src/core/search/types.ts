/** The shapes of a ranked search: options, hits and the result envelope. */
import type { TrigramIndex } from '../text/trigram';
import type { NoteResult, QueryResult } from '../contract';
import type { NoteSource } from '../port';
import type { TimeSlice } from '../steps';
import type { Expansion } from './expansion';
import type { Tier } from './rank';

/** Options of one search. */
export interface SearchOptions {
	/** Maximum results (default from settings, 10). */
	limit?: number;
	/** Where to read texts and links (default: the source the index was built from). */
	source?: NoteSource | null;
	/** Fill `backlinks` (default true; the UI list can skip it). */
	withBacklinks?: boolean;
	/** Find each hit's excerpt, section and line in its text (default true; a context pack quotes sections itself and skips it: hits then carry their abstract as excerpt and no section or line). */
	withExcerpts?: boolean;
	/** Fill `forward_links` and `backlinks` (default true; a context pack ranks notes by their hits and skips them: with no excerpts either, no hit's metadata is read and tags come from the index). */
	withLinks?: boolean;
	/** Complete the last word as a prefix (search-as-you-type in a modal; default false). */
	prefixLast?: boolean;
	/** Search only notes under these folders (vault-relative); a folder holding no note is an error. */
	folders?: string[];
	/** Search only these notes (a base view's rows, for a pack scoped to it). */
	paths?: ReadonlySet<string>;
	/** A trigram index: phrases and regexes read only the notes it names as candidates (answers unchanged). */
	trigrams?: TrigramIndex | null;
	/** Date properties that date a hit, first set wins (default: the engine's defaults); else the file's modification time. */
	dateFields?: readonly string[];
	/** A host's time budget: the search pauses between its phases, and in the hits' backlinks pass over every note's links, when it is used up (answers unchanged). */
	slice?: TimeSlice;
}

/** One ranked hit: the contract's note result plus the ranked-search fields. */
export interface SearchHit extends NoteResult {
	/** Final score (BM25F × coverage × boosts). */
	score: number;
	/** Best tier, the seed's explanation of why the note matched. */
	tier: Tier;
	/** The seed's base points of that tier. */
	tier_points: number;
	/** The word that earned the tier. */
	match_term: string | null;
	/** Every query word (typed or generated) that matched. */
	matched_terms: string[];
	/** `## Abstract` section or first paragraph. */
	abstract: string;
	/** A synthesis note (`Type: permanent`) that the query strongly relates to. */
	synthesis: boolean;
	/** The heading of the section the excerpt comes from, or null. */
	section: string | null;
	/** The 1-based file line the excerpt comes from, or null (open the note at its top). */
	line: number | null;
	/** The note's tags as written, `#` first, each once (Obsidian's rules). */
	tags: string[];
}

/** A generated search word, for reports. */
export interface ExpandedTerm {
	text: string;
	/** The typed word it expands, or null for the whole query. */
	from: string | null;
	source: Expansion['source'];
}

/** The envelope of a ranked search. */
export interface SearchResult extends QueryResult<SearchHit> {
	/** Words as typed (after analysis) and the generated ones. */
	/**
	 * Words as typed (after analysis; a corrected word as it was searched), the generated ones,
	 * typed words that matched no note and were taken as a near index term (`corrected`), and
	 * typed words that matched nothing at all (`unmatched`).
	 */
	terms: {
		typed: string[];
		expanded: ExpandedTerm[];
		corrected: { from: string; to: string }[];
		unmatched: string[];
	};
	/** Whether the keyword-index note was used. */
	keyword_index: 'used' | 'missing' | 'disabled';
	/** Hits explained by the keyword index vs by the index of note contents (the seed's "index" vs "grep"). */
	index_matches: number;
	grep_matches: number;
	/** What to try when nothing matched. */
	advice: string[];
}
