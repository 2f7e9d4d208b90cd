/** Backlinks of result notes, from the port's `resolvedLinks`, with where each link was written. */
import type { BacklinkRef, LinkSource } from '../contract';
import type { NoteSource } from '../port';

/** Target path → source paths, from a `resolvedLinks` map. */
export function invertLinks(resolved: Record<string, Record<string, number>>): Map<string, string[]> {
	const out = new Map<string, string[]>();
	for (const src of Object.keys(resolved)) {
		for (const dest of Object.keys(resolved[src])) {
			const list = out.get(dest);
			if (list) list.push(src);
			else out.set(dest, [src]);
		}
	}
	return out;
}

function linkpath(link: string): string {
	const hash = link.indexOf('#');
	return hash < 0 ? link : link.slice(0, hash);
}

/** Whether `src` links to `target` in its body, its frontmatter, or both (body when unknown). */
export function backlinkSource(source: NoteSource, src: string, target: string): LinkSource {
	const meta = source.getMetadata(src);
	// resolvedLinks says src links to target; without frontmatter links that link is in the body,
	// so most backlinks need no resolution at all.
	if (!meta?.frontmatterLinks || meta.frontmatterLinks.length === 0) return 'body';
	const fm = meta.frontmatterLinks.some((l) => source.resolveLink(linkpath(l.link), src) === target);
	if (!fm) return 'body';
	const body = [...(meta.links ?? []), ...(meta.embeds ?? [])].some((l) => source.resolveLink(linkpath(l.link), src) === target);
	return body ? 'both' : 'frontmatter';
}

/** The backlinks of `target`, sorted by path. */
export function backlinksOf(source: NoteSource, inverted: Map<string, string[]>, target: string): BacklinkRef[] {
	return (inverted.get(target) ?? [])
		.filter((src) => src !== target)
		.sort()
		.map((src) => ({ path: src, source: backlinkSource(source, src, target) }));
}
