import type { CachedMetadata, LinkMap } from './metadata';

/**
 * One note's UTF-8 bytes (byte order mark left out), valid until its source's next read.
 */
export interface NoteBytes {
	/** The bytes as a string of one character per byte (Latin-1): its offsets are byte offsets. */
	readonly latin1: string;
	/** Bytes `start` to `end` as Latin-1 (a part of `latin1`, without making all of it). */
	latin1Of(start: number, end: number): string;
	/** The text of bytes `start` to `end` decoded as UTF-8. */
	text(start: number, end: number): string;
	/** The bytes themselves (valid as long as the NoteBytes), for a listing that copies its lines without decoding them. */
	readonly bytes: Uint8Array;
}

/**
 * The one port the engine consumes. The Obsidian adapter implements it with
 * `app.metadataCache` and `app.vault`; the Node adapter with the file system and our own
 * Obsidian-compatible parser. Core never sees anything else of either world.
 */
export interface NoteSource {
	/** Absolute vault root for reports (the vault name inside Obsidian). */
	readonly vaultPath: string;
	/** Obsidian's config folder name, usually `.obsidian`. */
	readonly configDir: string;
	/** Obsidian's "Excluded files" (`userIgnoreFilters`): folder prefixes or `/regex/`. */
	readonly userIgnoreFilters: readonly string[];
	/**
	 * Optional: why the host could not use the "Excluded files" setting (the Node face's app.json is a
	 * FIFO, unreadable or malformed), or null. Every answer then reports it: excluded notes are searched.
	 */
	readonly excludedFilesProblem?: string | null;
	/**
	 * Every Markdown note path, vault-relative with `/` separators, in walk order.
	 *
	 * Contract: a list once handed out is never changed in place, and the same list (the same
	 * array) may be handed out again only while no note has come, gone or been renamed — a
	 * change of notes hands out a new array. Core keeps what it works out from a list per array
	 * (WeakMaps keyed by it): the scope per rules (`resolveScopeSteps`, core/scope.ts), note
	 * positions (`positionsIn`) and the name index of note references (core/note-ref.ts). A source
	 * that broke it would answer from a stale scope; one that hands out a new array each call is
	 * correct, only slower (test/plugin/lifecycle.test.ts pins the plugin source's lists).
	 */
	listNotes(): readonly string[];
	/** Every file path in the vault (notes and attachments); link resolution needs them all. */
	listFiles(): readonly string[];
	/** The note's metadata, or null when not (yet) indexed. */
	getMetadata(path: string): CachedMetadata | null;
	/** Why the note's frontmatter could not be parsed, or null when it parsed (or has none). */
	getFrontmatterError(path: string): string | null;
	/** Why the note was not indexed at all (binary, too large…), or null. */
	getSkipReason(path: string): string | null;
	/** Modification time in ms since the epoch, or null when unknown. */
	getMtime(path: string): number | null;
	/**
	 * Optional: a file's size in bytes and its creation and modification times (ms), for bases'
	 * `file.size`, `file.ctime`, `file.mtime`; null when unknown. Without it only `getMtime` is known.
	 */
	fileStat?(path: string): { size: number | null; ctime: number | null; mtime: number | null } | null;
	/** The note's full text (frontmatter included). */
	read(path: string): Promise<string>;
	/**
	 * Optional: the note as `read` would give it, but as bytes — for a scan of many notes that
	 * decodes only the lines it shows (a full grep answer). Null: call `read` (a note held as text,
	 * one that would be skipped). What it hands out is valid until the source's next read.
	 */
	readBytes?(path: string): NoteBytes | null;
	/**
	 * Optional: this source for one pass over many notes (a full grep or text-search answer) —
	 * the same answers, but what it decodes for the notes it reads (their metadata, their link-map
	 * entries) is not held once the pass has moved on. A source that keeps what queries decode
	 * (the Node face's snapshot) offers it, so one full answer does not leave every note decoded.
	 */
	passing?(): NoteSource;
	/** Obsidian's `getFirstLinkpathDest`: the file a linkpath resolves to from `sourcePath`, or null. */
	resolveLink(linkpath: string, sourcePath: string): string | null;
	/** `metadataCache.resolvedLinks`. */
	resolvedLinks(): LinkMap;
	/** `metadataCache.unresolvedLinks`. */
	unresolvedLinks(): LinkMap;
	/**
	 * Optional: the notes whose `resolvedLinks()` entry names `target` — exactly what inverting the
	 * map gives, in any order. A source that keeps the map inverted (the Node face's snapshot, the
	 * plugin's inverse kept from Obsidian's events) offers it so that backlinks of a few notes do
	 * not invert or walk the whole map.
	 */
	linkSourcesOf?(target: string): readonly string[];
	/**
	 * Optional: whether `linkSourcesOf` answers now; absent means always. A source that builds its
	 * inverse in the background says false meanwhile, and the caller reads the maps themselves.
	 */
	linkSourcesReady?(): boolean;
	/**
	 * Optional: true when the note's frontmatter certainly has no own key `key`; false means
	 * "maybe" (read the frontmatter). A source that holds frontmatter still encoded (the Node
	 * face's snapshot) answers from the bytes, so a query for one property need not decode every
	 * note's frontmatter.
	 */
	lacksProperty?(path: string, key: string): boolean;
	/**
	 * Optional: the note's own frontmatter keys as saved, or null when the source cannot tell
	 * without decoding the frontmatter — a full answer titles every matching note, and most have
	 * no `title` property to decode.
	 */
	frontmatterKeys?(path: string): readonly string[] | null;
	/**
	 * Optional: Obsidian's `getAllTags` of the note (frontmatter tags, then body tags, as
	 * written), or null when the note is not indexed — what a source that saved it beside the
	 * metadata answers without decoding the metadata.
	 */
	allTags?(path: string): readonly string[] | null;
	/**
	 * The text of a side file — the keyword index, the synonyms note, the schema note — by its
	 * explicit vault path, or null when there is none. Hidden folders (`.claude/index.md`) are
	 * readable, and the config folder where the host allows it, though neither is ever listed:
	 * naming a file is not walking the vault. Paths leaving the vault (`..`, absolute) are refused.
	 */
	readSideFile(path: string): Promise<string | null>;
	/** The text of `<configDir>/<name>` (e.g. `types.json`, Obsidian's property types), or null when absent. */
	readConfigFile(name: string): Promise<string | null>;
	/**
	 * Parse YAML text the way the host parses frontmatter (Obsidian's `parseYaml`; js-yaml with
	 * the core schema in Node). Throws on invalid YAML. Core cannot bundle a YAML library (the
	 * plugin ships none), so fenced ```yaml blocks in notes are parsed through the port.
	 */
	parseYaml(text: string): unknown;
}
