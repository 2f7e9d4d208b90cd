import type { FrontMatter } from './metadata';
import type { DateSource } from './note-date';

/**
 * The output contracts of shared/DESIGN.md. Every face (CLI `--json`, plugin API, modals)
 * renders exactly these objects; change them only with the README and tests.
 */

/** `success`: answered (possibly with zero results); `partial`: answered but something was skipped; `failed`: could not search. */
export type Status = 'success' | 'partial' | 'failed';

/** How a link was found: in the body, in frontmatter properties, or both. */
export type LinkSource = 'body' | 'frontmatter' | 'both';

/** A note that links to the subject note. */
export interface BacklinkRef {
	path: string;
	source: LinkSource;
}

/** One text match: 1-based line number, the line, and up to two lines either side. */
export interface LineMatch {
	line: number;
	text: string;
	before: string[];
	after: string[];
}

/** One note in a result list. */
export interface NoteResult {
	path: string;
	title: string;
	folder: string;
	frontmatter: FrontMatter;
	/**
	 * The note's day (`YYYY-MM-DD`): the first date property set (the `dateFields` setting; the key
	 * in `date_key`), else the file's modification time (`date_source: "mtime"`); null when neither.
	 */
	date?: string | null;
	/** Where `date` came from: `frontmatter` (see `date_key`) or `mtime`. */
	date_source?: DateSource | null;
	/** The property that gave `date`, as the note writes it. */
	date_key?: string;
	excerpt: string;
	/** Link targets as written (linkpaths), deduplicated, body and frontmatter. */
	forward_links: string[];
	backlinks: BacklinkRef[];
	/** For backlinks queries: how this note links to the target. */
	source?: LinkSource;
	/** For grep queries: every matching line with context. */
	matches?: LineMatch[];
}

/** One outgoing link of a note, for the `links` query. */
export interface LinkResult {
	linkpath: string;
	/** The vault path it resolves to with Obsidian's rules, or null when unresolved. */
	resolved: string | null;
	source: LinkSource;
	/** How many times the note links there. */
	count: number;
}

/** A file left out of the search, and why. */
export interface SkippedFile {
	path: string;
	reason: string;
}

/** The envelope every query returns. */
export interface QueryResult<R = NoteResult> {
	status: Status;
	query: Record<string, unknown>;
	searched: { files: number; folders: string[] };
	matched: number;
	results: R[];
	skipped: SkippedFile[];
	limitations: string[];
	/** Present when `status` is `failed`: what was wrong, naming the bad parameter. */
	error?: string;
	/** Near misses worth telling the user ("did you mean …"). */
	suggestions?: string[];
	/** Set when a grep stopped at `limit` matching notes and more match: `matched` then counts only those found (MCP). */
	more?: boolean;
}
