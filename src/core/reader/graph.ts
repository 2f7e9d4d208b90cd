import type { LinkGraph } from '../link-graph';
import type { LinkResult } from '../contract';
import type { OutboundLink } from './types';

/**
 * The note's outgoing links, deduplicated: body links and embeds, and frontmatter links as
 * Obsidian has them (`[[…]]` in properties, and bare names of the links key that name a note),
 * each marked body/frontmatter/both — so outbound counts what inbound counts, in both directions.
 */
export function outgoingLinks(graph: LinkGraph, path: string): LinkResult[] {
	return graph.forward(path);
}

/** A link name as compared with `known_skill_refs`: case-insensitive, without `.md`. */
function refKey(name: string): string {
	return name.trim().toLowerCase().replace(/\.md$/, '');
}

/**
 * The graph operation's outbound list: each outgoing link resolved with Obsidian's rules (`vault`),
 * else named by the caller as a skill (`skill-library-ref`), else `unresolved`. With
 * `resolve_wikilinks`, vault links carry the absolute path of their file.
 */
export function outboundLinks(
	graph: LinkGraph,
	path: string,
	knownSkillRefs: readonly string[],
	absolute: ((path: string) => string) | null,
): OutboundLink[] {
	const known = new Set(knownSkillRefs.map(refKey));
	return outgoingLinks(graph, path).map((link) => {
		const resolution =
			link.resolved !== null ? 'vault' : known.has(refKey(link.linkpath)) ? 'skill-library-ref' : 'unresolved';
		const out: OutboundLink = { linkpath: link.linkpath, resolution, source: link.source, count: link.count };
		if (link.resolved !== null && absolute !== null) out.path = absolute(link.resolved);
		return out;
	});
}
