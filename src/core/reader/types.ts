import type { BacklinkRef, LinkSource, NoteResult, QueryResult } from '../contract';
import { DEFAULT_SETTINGS, type EngineSettings } from '../settings';

/**
 * The schema-strict reader of seed 001 (vault-reader): four read-only operations whose
 * parameters are validated against the vault's frontmatter schema before anything is read.
 * Parameter names are the seed's (snake_case), so a request is the seed's input table as JSON.
 */

/** The four operations. */
export type ReaderOperation = 'lookup' | 'filter' | 'graph' | 'text-search';

/** Every operation, for validation and help. */
export const READER_OPERATIONS: readonly ReaderOperation[] = ['lookup', 'filter', 'graph', 'text-search'];

/** A `where` value in the map form: a scalar (equality; `">=7"` compares on number/date fields) or a list (any of). */
export type WhereValue = string | number | boolean | (string | number | boolean)[];

/** One reader call: the seed's input table (the vault is the `NoteSource`). */
export interface ReaderRequest {
	operation: ReaderOperation;
	/** lookup, graph: the note's file name without `.md` (a path below a folder works too). */
	slug?: string;
	/** filter: `{ status: 'open', rating: '>=7', tags: ['pkm'] }`, or clauses `['status=open', 'rating>=7']`. */
	where?: Record<string, WhereValue> | string[];
	/** text-search: a substring, or a regex with `regex: true`. */
	pattern?: string;
	regex?: boolean;
	/** text-search: match case exactly (default: case-insensitive, like the engine's grep). */
	case_sensitive?: boolean;
	/** Folders relative to the vault root, or `['all']`; default: the settings' default folders. */
	folders?: string[];
	full_body?: boolean;
	excerpt_chars?: number;
	max_results?: number;
	min_confidence?: string;
	max_staleness_days?: number;
	include_archived?: boolean;
	/** graph: report the absolute path of each resolved link (default true). */
	resolve_wikilinks?: boolean;
	/** graph: link names to tag `skill-library-ref` instead of `unresolved`. */
	known_skill_refs?: string[];
	/** The schema note, vault-relative; default from the settings (`_meta/frontmatter-schema.md`). */
	schema?: string;
	/** "Today" for `max_staleness_days`, `YYYY-MM-DD`; default the current UTC day (injectable for tests). */
	today?: string;
}

/** Reader settings: the engine's (exclusions, links key, context lines) plus the seed's reader defaults. */
export interface ReaderSettings {
	engine: EngineSettings;
	/** Vault-relative path of the schema note. */
	schemaPath: string;
	/** Folders searched when the caller names none (empty: the whole vault); when none of them exist, the whole vault is. */
	defaultFolders: string[];
	excerptChars: number;
	maxResults: number;
}

/** The defaults: the schema note's path and caps; the whole vault unless a profile names folders (`team-folders`: Notes/, skill-lab/). */
export const DEFAULT_READER_SETTINGS: ReaderSettings = {
	engine: DEFAULT_SETTINGS,
	schemaPath: '_meta/frontmatter-schema.md',
	defaultFolders: [],
	excerptChars: 300,
	maxResults: 25,
};

/** How an outbound link resolved: to a vault file, to a caller-known skill, or nowhere. */
export type Resolution = 'vault' | 'skill-library-ref' | 'unresolved';

/** One outbound body link of a graph result. */
export interface OutboundLink {
	linkpath: string;
	resolution: Resolution;
	/** The absolute path of the file it resolves to (with `resolve_wikilinks`, for `vault` links). */
	path?: string;
	source: LinkSource;
	count: number;
}

/** A reader result: the engine's note result plus the report's link counts and the graph's lists. */
export interface ReaderNoteResult extends NoteResult {
	/** The whole body, with `full_body`. */
	body?: string;
	inbound_count: number;
	outbound_count: number;
	/** graph: body links with their resolution. */
	outbound?: OutboundLink[];
	/** graph: notes in the scoped folders linking here. */
	inbound?: BacklinkRef[];
}

/** The retrieval report as JSON: the engine's envelope plus what the seed's report names. */
export interface ReaderReport extends QueryResult<ReaderNoteResult> {
	operation: string;
	vault_path: string;
	/** The schema validated against, or null when the call failed before it was read. */
	schema: { path: string; modified: string | null } | null;
	/** lookup, graph: the paths tried, in order. */
	tried?: string[];
}
