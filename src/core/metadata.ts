/**
 * The `CachedMetadata` shape Obsidian produces for a note, declared structurally so that
 * core never imports `obsidian`. Field names and nesting follow obsidian.d.ts exactly; the
 * Node parser must produce the same shape (judged by shared/conformance/obsidian-1.9).
 */

/** A point in a file: 0-based line and column, offset from file start, in UTF-16 code units. */
export interface Loc {
	line: number;
	col: number;
	offset: number;
}

/** A span in a file. */
export interface Pos {
	start: Loc;
	end: Loc;
}

/** A wikilink, markdown link or embed found in a note body. */
export interface LinkCache {
	link: string;
	original: string;
	displayText?: string;
	position: Pos;
}

/** A link found in a frontmatter property value (`key` is the dotted path, e.g. `related.0`). */
export interface FrontmatterLinkCache {
	key: string;
	link: string;
	original: string;
	displayText?: string;
}

/** An inline `#tag` in a note body (tag keeps source case and includes `#`). */
export interface TagCache {
	tag: string;
	position: Pos;
}

/** A root-level heading. */
export interface HeadingCache {
	heading: string;
	level: number;
	position: Pos;
}

/** A `^block-id` target. */
export interface BlockCache {
	id: string;
	position: Pos;
}

/** One root-level block of the document (`yaml`, `heading`, `paragraph`, `list`, `code`, …). */
export interface SectionCache {
	type: string;
	position: Pos;
	id?: string;
}

/** A list item; `parent` is the parent item's line, or the negated line of the list's first item. */
export interface ListItemCache {
	parent: number;
	position: Pos;
	task?: string;
	id?: string;
}

/** Parsed frontmatter: a plain YAML object. */
export type FrontMatter = Record<string, unknown>;

/** Everything Obsidian indexes about one note. Empty arrays are omitted, as Obsidian does. */
export interface CachedMetadata {
	frontmatter?: FrontMatter;
	frontmatterPosition?: Pos;
	frontmatterLinks?: FrontmatterLinkCache[];
	links?: LinkCache[];
	embeds?: LinkCache[];
	tags?: TagCache[];
	headings?: HeadingCache[];
	sections?: SectionCache[];
	listItems?: ListItemCache[];
	blocks?: Record<string, BlockCache>;
}

/** Vault-wide link counts: source path → destination (path or unresolved linkpath) → count. */
export type LinkMap = Record<string, Record<string, number>>;
