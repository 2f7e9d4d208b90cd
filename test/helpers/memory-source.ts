/**
 * An in-memory vault for tests: our real parser, resolver and link maps over path → text, so a
 * test's metadata is what the CLI would see. Mutable (`set`, `delete`, `rename`) for tests of
 * incremental indexes. Never touches the disk.
 */
import { load } from 'js-yaml';
import type { CachedMetadata, LinkMap } from '../../src/core/metadata';
import type { NoteSource } from '../../src/core/port';
import { buildLinkMaps } from '../../src/node/link-maps';
import { parseNote } from '../../src/node/parser/index';
import { LinkResolver } from '../../src/node/resolver';

/** The metadata our parser gives a note text (what `openVault` would index). */
export function metadataOf(text: string): CachedMetadata {
	return parseNote(text).metadata;
}

/** A NoteSource over a record of file texts. */
export class MemorySource implements NoteSource {
	readonly vaultPath: string;
	readonly configDir = '.obsidian';
	/** Obsidian's "Excluded files"; tests may set it. */
	userIgnoreFilters: readonly string[] = [];
	private readonly texts = new Map<string, string>();
	private readonly hidden = new Map<string, string>();
	private readonly metas = new Map<string, CachedMetadata>();
	private resolver = new LinkResolver([]);
	private maps: { resolvedLinks: LinkMap; unresolvedLinks: LinkMap } = { resolvedLinks: {}, unresolvedLinks: {} };

	/** `files`: vault path → text (non-`.md` paths are attachments). */
	constructor(files: Record<string, string>, vaultPath = '/memory/vault') {
		this.vaultPath = vaultPath;
		for (const [path, text] of Object.entries(files)) this.put(path, text);
		this.relink();
	}

	/** Create or replace a file. */
	set(path: string, text: string): void {
		this.put(path, text);
		this.relink();
	}

	/** Delete a file. */
	delete(path: string): void {
		this.texts.delete(path);
		this.metas.delete(path);
		this.relink();
	}

	/** Move a file, keeping its text. */
	rename(from: string, to: string): void {
		const text = this.texts.get(from);
		if (text === undefined) return;
		this.texts.delete(from);
		this.metas.delete(from);
		this.set(to, text);
	}

	listNotes(): readonly string[] {
		return [...this.texts.keys()].filter((p) => p.endsWith('.md'));
	}

	listFiles(): readonly string[] {
		return [...this.texts.keys()];
	}

	getMetadata(path: string): CachedMetadata | null {
		return this.metas.get(path) ?? null;
	}

	getFrontmatterError(): string | null {
		return null;
	}

	getSkipReason(): string | null {
		return null;
	}

	getMtime(): number | null {
		return null;
	}

	read(path: string): Promise<string> {
		const text = this.texts.get(path);
		return text === undefined ? Promise.reject(new Error(`no such note: ${path}`)) : Promise.resolve(text);
	}

	resolveLink(linkpath: string, sourcePath: string): string | null {
		return this.resolver.getFirstLinkpathDest(linkpath, sourcePath);
	}

	resolvedLinks(): LinkMap {
		return this.maps.resolvedLinks;
	}

	unresolvedLinks(): LinkMap {
		return this.maps.unresolvedLinks;
	}

	readSideFile(path: string): Promise<string | null> {
		return Promise.resolve(this.texts.get(path) ?? this.hidden.get(path) ?? null);
	}

	/** A file the vault does not list (a dot-folder's), readable only by explicit path. */
	setHidden(path: string, text: string): void {
		this.hidden.set(path, text);
	}

	readConfigFile(): Promise<string | null> {
		return Promise.resolve(null);
	}

	parseYaml(text: string): unknown {
		return load(text);
	}

	private put(path: string, text: string): void {
		this.texts.set(path, text);
		if (path.endsWith('.md')) this.metas.set(path, metadataOf(text));
	}

	/** Resolution depends on every file name, so the maps are rebuilt after any change (tests are small). */
	private relink(): void {
		this.resolver = new LinkResolver(this.texts.keys());
		this.maps = buildLinkMaps(this.metas.entries(), this.resolver);
	}
}
