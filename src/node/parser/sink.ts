/**
 * The accumulator the scanners write into while walking a note; `toMetadata` turns it into a
 * CachedMetadata with Obsidian's omissions (empty arrays and an empty `blocks` left out).
 */
import type {
	BlockCache,
	CachedMetadata,
	HeadingCache,
	LinkCache,
	ListItemCache,
	SectionCache,
	TagCache,
} from '../../core/metadata';

/** Everything found in a note body, in document order. */
export class MetadataSink {
	/** Wikilinks and markdown links. */
	readonly links: LinkCache[] = [];
	/** `![[…]]` and `![](…)` embeds. */
	readonly embeds: LinkCache[] = [];
	/** Inline `#tags`. */
	readonly tags: TagCache[] = [];
	/** Root-level headings. */
	readonly headings: HeadingCache[] = [];
	/** Root-level blocks. */
	readonly sections: SectionCache[] = [];
	/** List items at any depth. */
	readonly listItems: ListItemCache[] = [];
	/** `^block-id` targets, keyed by lower-cased id, in an object without a prototype (`^constructor` is an id like any other); null until the first one. */
	blocks: Record<string, BlockCache> | null = null;

	/** Record a block id (the first occurrence of an id wins, as a later one cannot be linked). */
	addBlock(id: string, block: BlockCache): void {
		const key = id.toLowerCase();
		if (this.blocks === null) this.blocks = Object.create(null) as Record<string, BlockCache>;
		if (!Object.hasOwn(this.blocks, key)) this.blocks[key] = block;
	}

	/** Copy the non-empty collections into `out`. */
	fill(out: CachedMetadata): void {
		if (this.links.length > 0) out.links = this.links;
		if (this.embeds.length > 0) out.embeds = this.embeds;
		if (this.tags.length > 0) out.tags = this.tags;
		if (this.headings.length > 0) out.headings = this.headings;
		if (this.sections.length > 0) out.sections = this.sections;
		if (this.listItems.length > 0) out.listItems = this.listItems;
		if (this.blocks !== null) out.blocks = this.blocks;
	}
}
