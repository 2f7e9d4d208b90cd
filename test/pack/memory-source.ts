/** An in-memory vault for pack tests: our real parser, resolver and link maps over path → text. */
import type { CachedMetadata, LinkMap } from '../../src/core/metadata';
import type { NoteSource } from '../../src/core/port';
import { buildLinkMaps } from '../../src/node/link-maps';
import { parseNote } from '../../src/node/parser/index';
import { LinkResolver } from '../../src/node/resolver';

/** A NoteSource over a record of note texts (never touches the disk). */
export class MemorySource implements NoteSource {
	readonly vaultPath = '/memory/vault';
	readonly configDir = '.obsidian';
	readonly userIgnoreFilters: readonly string[] = [];
	private readonly metas = new Map<string, CachedMetadata>();
	private readonly resolver: LinkResolver;
	private readonly maps: { resolvedLinks: LinkMap; unresolvedLinks: LinkMap };

	constructor(private readonly texts: Record<string, string>) {
		for (const [path, text] of Object.entries(texts)) this.metas.set(path, parseNote(text).metadata);
		this.resolver = new LinkResolver(Object.keys(texts));
		this.maps = buildLinkMaps(this.metas.entries(), this.resolver);
	}

	listNotes(): readonly string[] {
		return Object.keys(this.texts).filter((p) => p.endsWith('.md'));
	}

	listFiles(): readonly string[] {
		return Object.keys(this.texts);
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

	async read(path: string): Promise<string> {
		const text = this.texts[path];
		if (text === undefined) throw new Error(`ENOENT: ${path}`);
		return text;
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

	async readConfigFile(): Promise<string | null> {
		return null;
	}

	parseYaml(): unknown {
		throw new Error('not used');
	}
}
