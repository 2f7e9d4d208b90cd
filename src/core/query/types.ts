/**
 * The typed structural queries (seed 000, vault-querier). Every face parses its input into one
 * of these and hands it to `runQuery`.
 */

/** Options every structural query accepts. */
export interface QueryScope {
	/** Narrow the search to these vault folders (prefixes); empty or absent means the whole vault. */
	folders?: string[];
	/** Maximum results; default from settings (20). */
	limit?: number;
}

/** Notes carrying a tag (nested, case-insensitive, frontmatter and inline). */
export interface TagQuery extends QueryScope {
	type: 'tag';
	tag: string;
}

/** Notes whose frontmatter `key` equals `value` (or contains it, with `match: 'contains'`); lists match by membership. */
export interface PropQuery extends QueryScope {
	type: 'prop';
	key: string;
	/** Absent: the key merely has to be present with a non-empty value. */
	value?: string;
	match?: 'equals' | 'contains';
}

/** Notes that link to `target` (body links, frontmatter links, and the `links:` field of bare names). */
export interface BacklinksQuery extends QueryScope {
	type: 'backlinks';
	/** A note named the way a wikilink names it: bare name, or vault path with or without `.md`. */
	target: string;
}

/** The outgoing links of `source`, body and frontmatter, deduplicated, resolved or not. */
export interface LinksQuery extends QueryScope {
	type: 'links';
	source: string;
}

/** Full-text substring or regex over note bodies, with line context. */
export interface GrepQuery extends QueryScope {
	type: 'grep';
	pattern: string;
	regex?: boolean;
	caseSensitive?: boolean;
}

/** Any structural query. */
export type StructuredQuery = TagQuery | PropQuery | BacklinksQuery | LinksQuery | GrepQuery;
