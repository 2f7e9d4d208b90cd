/**
 * `metadataCache.resolvedLinks` / `unresolvedLinks` rebuilt from parsed notes, as
 * shared/OBSIDIAN-METADATA.md ("resolvedLinks / unresolvedLinks") describes and the corpus's
 * metadataCache/*.json confirm.
 */
import type { CachedMetadata, LinkMap } from '../core/metadata';
import { parseLinktext } from '../core/obsidian-rules';
import type { LinkpathResolver } from './resolver';

/** The two vault-wide link maps. */
export interface LinkMaps {
	/** source → destination file path → count. */
	resolvedLinks: LinkMap;
	/** source → linkpath (without a trailing `.md`) → count. */
	unresolvedLinks: LinkMap;
}

/** The unresolved-map key: the linkpath without one trailing `.md` (case-sensitive, as recorded). */
function unresolvedKey(linkpath: string): string {
	return linkpath.endsWith('.md') ? linkpath.slice(0, -3) : linkpath;
}

/**
 * Adds one to `counts[key]`. Plain objects, not Maps turned into objects at the end: measured
 * 2–3× faster for the ~60k links of obsidian-help-i18n. `__proto__` is the one key that plain
 * assignment would not store (it hits the prototype setter), so it is defined explicitly.
 */
function bump(counts: Record<string, number>, key: string): void {
	if (Object.hasOwn(counts, key)) counts[key]! += 1;
	else setOwn(counts, key, 1);
}

/** `target[key] = value` that also stores `__proto__` as an own, enumerable property. */
function setOwn<T>(target: Record<string, T>, key: string, value: T): void {
	if (key === '__proto__')
		Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
	else target[key] = value;
}

/**
 * Builds both maps. Every note gets an entry (`{}` when it has no links); frontmatter links, body
 * links and embeds all count, in that order; self-links count; destinations may be attachments.
 */
export function buildLinkMaps(
	notes: Iterable<readonly [string, CachedMetadata]>,
	resolver: LinkpathResolver,
): LinkMaps {
	const resolvedLinks: LinkMap = {};
	const unresolvedLinks: LinkMap = {};
	for (const [source, metadata] of notes) {
		const hits: Record<string, number> = {};
		const misses: Record<string, number> = {};
		for (const list of [metadata.frontmatterLinks, metadata.links, metadata.embeds]) {
			if (!list) continue;
			for (const ref of list) {
				// The linkpath is the link before its first `#` (Obsidian's parseLinktext).
				const linkpath = parseLinktext(ref.link).path;
				const dest = resolver.getFirstLinkpathDest(linkpath, source);
				if (dest === null) bump(misses, unresolvedKey(linkpath));
				else bump(hits, dest);
			}
		}
		setOwn(resolvedLinks, source, hits);
		setOwn(unresolvedLinks, source, misses);
	}
	return { resolvedLinks, unresolvedLinks };
}
