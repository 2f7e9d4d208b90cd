/**
 * The context-pack contract (docs/DESIGN.md "Context packs"): what `buildPack` takes and what
 * every face prints — the CLI's `pack --json`, the plugin API's `pack()` — and the Markdown the
 * "Copy context pack" command puts on the clipboard.
 */
import type { QueryResult } from '../contract';
import type { DateSource } from '../note-date';

/** The budget used when the request names none (the seed's default). */
export const DEFAULT_BUDGET = 2000;

/** The seed's instruction to the downstream agent, verbatim. */
export const HANDOFF_INSTRUCTION =
	'Answer only from the PACK. Cite claims as [S1], [S2]. A claim you cannot cite is uncertainty: say so.';

/** What to pack. */
export interface PackRequest {
	/** The question, in any language; may hold `[[Note#Heading]]`, `^block-id` and search filters. */
	query: string;
	/** The downstream agent's task, passed on in the handoff. */
	task?: string;
	/** Token budget for the whole rendered pack (default {@link DEFAULT_BUDGET}). */
	budget?: number;
	/** Keep notes with `status: draft` (default false). */
	includeDrafts?: boolean;
	/** Keep archived notes (status archived/archive, tag #archive/#archived, `archived: true`; default false). */
	includeArchived?: boolean;
	/** The handoff's `built_at` (YYYY-MM-DD; default: today, UTC). */
	builtAt?: string;
	/** Only these notes may be quoted — the rows of a base view (`VaultEngine.pack` fills it from `base`). */
	paths?: readonly string[];
	/** A base view as the pack's scope: `Books.base#Top rated` (or `NOTE#base` and a view after a second `#`). */
	base?: string;
}

/** One source of the pack: a section (or block) and the verbatim quotes taken from it. */
export interface PackSource {
	/** Stable id by rank: S1 is the best section, S2 the second best. */
	id: string;
	/** Vault-relative path of the note. */
	path: string;
	/** The section's heading, `Heading ^block-id` for a block, "(top of note)" before the first heading. */
	section: string;
	/** First and last line (1-based, inclusive) holding the quotes. */
	lines: [number, number];
	/**
	 * The note's date (YYYY-MM-DD): its first date property set (the `dateFields` setting), else the
	 * file's modification time; "undated" only when neither is known.
	 */
	date: string;
	/** Where `date` came from: `frontmatter`, `mtime` (the file's modification time), or null when undated. */
	date_source: DateSource | null;
	/** Verbatim quotes, in document order; each is a run of whole sentences copied from those lines. */
	quotes: string[];
}

/** One sub-question of the query and the sources that answer it. */
export interface CoverageLine {
	facet: string;
	/** `covered`: one relevant source's quotes hold every key word; `partial`: some source, but not that; `gap`: none. */
	status: 'covered' | 'partial' | 'gap';
	/** Sources graded relevant for this facet. */
	sources: string[];
	/** Sources graded partial for this facet. */
	partial_sources: string[];
	/** The facet's key words the best relevant source's quotes miss (without one: that no packed quote holds). */
	missing_terms: string[];
	/** Those of `missing_terms` no note of the vault holds at all (the others are in the vault, in no quote that answers). */
	absent_terms: string[];
}

/** What the pack does not contain, and why. */
export interface PackGap {
	/**
	 * `unanswered`: no note answers a facet; `partial`: a facet answered only in part;
	 * `budget`: a relevant or partial section left out to stay within the budget;
	 * `excluded`: a matching draft or archived note left out; `unresolved`: a reference in the
	 * query that names no note, heading or block.
	 */
	kind: 'unanswered' | 'partial' | 'budget' | 'excluded' | 'unresolved';
	/** One line for people and agents. */
	text: string;
	facet?: string;
	path?: string;
	section?: string;
	lines?: [number, number];
	/** `unanswered`: notes the search found for the facet whose sections do not answer it (leads to read, best first; a few). */
	notes?: string[];
	/** `unanswered` with `notes`: how many notes the search found for it in all. */
	matched?: number;
}

/** The handoff contract: the seed's fields, the estimator, and the task and default-budget note when they apply. */
export interface Handoff {
	query: string;
	token_budget: number;
	/** Estimated tokens of the whole Markdown pack, this block included. */
	tokens_used: number;
	source_count: number;
	vault_path: string;
	built_at: string;
	instruction: string;
	/** How tokens were estimated (src/core/pack/tokens.ts). */
	estimator: string;
	task?: string;
	/** Present when no budget was given. */
	budget_note?: string;
}

/** A context pack: the envelope fields of the output contract plus pack, coverage, gaps, handoff and the Markdown. */
export interface ContextPack extends Pick<
	QueryResult,
	'status' | 'query' | 'searched' | 'skipped' | 'limitations' | 'error'
> {
	pack: PackSource[];
	coverage: CoverageLine[];
	gaps: PackGap[];
	handoff: Handoff;
	/** PACK, COVERAGE, GAPS and HANDOFF as Markdown for a chat; its estimate never exceeds the budget. Empty when failed. */
	markdown: string;
}
