/**
 * `metadataCache.resolvedLinks` / `unresolvedLinks` rebuilt from parsed notes, as
 * shared/OBSIDIAN-METADATA.md ("resolvedLinks / unresolvedLinks") describes and the corpus's
 * metadataCache/*.json confirm.
 */
import type { CachedMetadata, LinkMap } from '../core/metadata';
import type { LinkpathResolver } from './resolver';

/** The two vault-wide link maps. */
export interface LinkMaps {
	/** source → destination file path → count. */
	resolvedLinks: LinkMap;
	/** source → linkpath (without a trailing `.md`) → count. */
	unresolvedLinks: LinkMap;
}

/** The linkpath of a link: everything before its first `#` (Obsidian's `parseLinktext(...).path`). */
export function linkpathOf(link: string): string {
	const hash = link.indexOf('#');
	return hash < 0 ? link : link.slice(0, hash);
}

/** The unresolved-map key: the linkpath without one trailing `.md` (case-sensitive, as recorded). */
function unresolvedKey(linkpath: string): string {
	return linkpath.endsWith('.md') ? linkpath.slice(0, -3) : linkpath;
}

/** Adds one to `counts[key]`. */
function bump(counts: Map<string, number>, key: string): void {
	counts.set(key, (counts.get(key) ?? 0) + 1);
}

/**
 * Builds both maps. Every note gets an entry (`{}` when it has no links); frontmatter links, body
 * links and embeds all count, in that order; self-links count; destinations may be attachments.
 */
export function buildLinkMaps(notes: Iterable<readonly [string, CachedMetadata]>, resolver: LinkpathResolver): LinkMaps {
	// Maps first, objects at the end: Object.fromEntries defines own properties, so a link
	// named `__proto__` or `constructor` is counted like any other instead of hitting the prototype.
	const resolved: [string, Record<string, number>][] = [];
	const unresolved: [string, Record<string, number>][] = [];
	for (const [source, metadata] of notes) {
		const hits = new Map<string, number>();
		const misses = new Map<string, number>();
		for (const list of [metadata.frontmatterLinks, metadata.links, metadata.embeds]) {
			if (!list) continue;
			for (const ref of list) {
				const linkpath = linkpathOf(ref.link);
				const dest = resolver.getFirstLinkpathDest(linkpath, source);
				if (dest === null) bump(misses, unresolvedKey(linkpath));
				else bump(hits, dest);
			}
		}
		resolved.push([source, Object.fromEntries(hits)]);
		unresolved.push([source, Object.fromEntries(misses)]);
	}
	return { resolvedLinks: Object.fromEntries(resolved), unresolvedLinks: Object.fromEntries(unresolved) };
}
