import type { BacklinkRef, LinkResult, LinkSource } from './contract';
import type { CachedMetadata } from './metadata';
import { linksFieldNames } from './note-info';
import type { NoteSource } from './port';

/** The linkpath of a link: the part before the first `#` (Obsidian's `parseLinktext(...).path`). */
export function linkpathOf(link: string): string {
	const hash = link.indexOf('#');
	return hash < 0 ? link : link.slice(0, hash);
}

/** One outgoing link as the graph sees it. */
interface Outgoing {
	linkpath: string;
	resolved: string | null;
	source: 'body' | 'frontmatter';
}

/** Combine two sightings of the same link into `body`, `frontmatter` or `both`. */
function merge(a: LinkSource | undefined, b: LinkSource): LinkSource {
	return a === undefined || a === b ? b : 'both';
}

/**
 * The link graph of a set of notes: every outgoing link (body links and embeds, frontmatter
 * `[[…]]` values, and the bare names of the `links:` field) resolved with the source's rules,
 * plus the reverse index. Built once per query from the port; cheap because resolution reuses
 * the port's resolver.
 */
export class LinkGraph {
	private readonly outgoingCache = new Map<string, Outgoing[]>();
	private reverse: Map<string, Map<string, LinkSource>> | null = null;

	/** `notes` are the link sources that count (the query's scope). */
	constructor(
		private readonly source: NoteSource,
		private readonly notes: readonly string[],
		private readonly linksKey: string,
	) {}

	/** Every outgoing link of `path` in document order: frontmatter first, then body. */
	outgoing(path: string): Outgoing[] {
		const cached = this.outgoingCache.get(path);
		if (cached) return cached;
		const meta: CachedMetadata | null = this.source.getMetadata(path);
		const list: Outgoing[] = [];
		const add = (link: string, source: Outgoing['source']): void => {
			const linkpath = linkpathOf(link);
			if (linkpath === '') return; // `[[#heading]]` points inside the note itself.
			list.push({ linkpath, resolved: this.source.resolveLink(linkpath, path), source });
		};
		for (const link of meta?.frontmatterLinks ?? []) add(link.link, 'frontmatter');
		for (const name of linksFieldNames(meta?.frontmatter, this.linksKey)) add(name, 'frontmatter');
		const body = [...(meta?.links ?? []), ...(meta?.embeds ?? [])].sort((a, b) => a.position.start.offset - b.position.start.offset);
		for (const link of body) add(link.link, 'body');
		this.outgoingCache.set(path, list);
		return list;
	}

	/** The deduplicated forward links of `path`: one entry per destination, marked body/frontmatter/both. */
	forward(path: string): LinkResult[] {
		const byKey = new Map<string, LinkResult>();
		for (const link of this.outgoing(path)) {
			const key = link.resolved ?? `?${link.linkpath.toLowerCase().replace(/\.md$/, '')}`;
			const seen = byKey.get(key);
			if (seen) {
				seen.source = merge(seen.source, link.source);
				seen.count += 1;
			} else {
				byKey.set(key, { linkpath: link.linkpath, resolved: link.resolved, source: link.source, count: 1 });
			}
		}
		return [...byKey.values()];
	}

	/** The linkpaths `path` links to, deduplicated case-insensitively (the contract's `forward_links`). */
	forwardNames(path: string): string[] {
		return this.forward(path).map((link) => link.linkpath);
	}

	/** The notes in scope that link to `target`, each marked body/frontmatter/both; self-links left out. */
	backlinks(target: string): BacklinkRef[] {
		const sources = this.reverseIndex().get(target);
		if (!sources) return [];
		return [...sources].filter(([path]) => path !== target).map(([path, source]) => ({ path, source }));
	}

	/**
	 * The reverse index, built on first use. `resolvedLinks` narrows the work to notes that link
	 * somewhere; the `links:` field is not in Obsidian's maps, so those notes are added.
	 */
	private reverseIndex(): Map<string, Map<string, LinkSource>> {
		if (this.reverse) return this.reverse;
		const reverse = new Map<string, Map<string, LinkSource>>();
		const resolved = this.source.resolvedLinks();
		for (const path of this.notes) {
			const hasLinks = Object.keys(resolved[path] ?? {}).length > 0 || linksFieldNames(this.source.getMetadata(path)?.frontmatter, this.linksKey).length > 0;
			if (!hasLinks) continue;
			for (const link of this.outgoing(path)) {
				if (link.resolved === null) continue;
				let sources = reverse.get(link.resolved);
				if (!sources) reverse.set(link.resolved, (sources = new Map<string, LinkSource>()));
				sources.set(path, merge(sources.get(path), link.source));
			}
		}
		this.reverse = reverse;
		return reverse;
	}
}
