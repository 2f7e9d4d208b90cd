/**
 * The open container blocks of the block pass (root, block quotes, list items) and the lists
 * that group sibling items. Plain classes with fixed fields so V8 keeps them monomorphic.
 */
import type { ListItemCache } from '../../core/metadata';

/** Container kinds. */
export const ROOT = 0;
/** A `>` block quote (or callout). */
export const QUOTE = 1;
/** A list item. */
export const ITEM = 2;

/** A run of sibling list items sharing one marker (`-`, `*`, `+`, `.` or `)`). */
export class ListInfo {
	/** The bullet character, or the ordered delimiter (`.`/`)`), as a char code. */
	readonly marker: number;
	/** 0-based line of the first item: root-level items point to it (negated) as `parent`. */
	readonly firstLine: number;
	/** The most recently closed item, whose end moves if a sibling follows after blank lines. */
	lastItem: Container | null = null;

	constructor(marker: number, firstLine: number) {
		this.marker = marker;
		this.firstLine = firstLine;
	}
}

/** An open container block. */
export class Container {
	/** ROOT, QUOTE or ITEM. */
	readonly kind: number;
	/** ITEM: the column its content starts at; continuation lines must be indented this far. */
	contentCol = 0;
	/** ITEM: the 0-based line of its marker. */
	startLine = 0;
	/** ITEM: the list it belongs to. */
	list: ListInfo | null = null;
	/** The list the latest child block belongs to, while that child block is a list item. */
	lastList: ListInfo | null = null;
	/** ITEM: its entry in `listItems`. */
	item: ListItemCache | null = null;
	// ITEM: end of its own content (nested lists excluded), as line / line start / offset.
	ownLine = 0;
	ownLineStart = 0;
	ownEnd = 0;
	/** ITEM: a blank line followed its own content (then a following sibling extends it there). */
	blankAfterOwn = false;
	blankLine = 0;
	blankLineStart = 0;

	constructor(kind: number) {
		this.kind = kind;
	}
}
