import type { CachedMetadata } from '../metadata';
import { getAllTags } from '../obsidian-rules';
import { closest } from '../suggest';
import type { QueryContext } from './context';
import type { Hit, QueryOutcome } from './envelope';
import type { TagQuery } from './types';

/** `#Inbox`, `inbox`, ` #inbox/ ` → `inbox`: the form tags are compared in (case-insensitive, like Obsidian's tag search). */
export function normalizeTag(tag: string): string {
	return tag.trim().replace(/^#+/, '').replace(/\/+$/, '').normalize('NFC').toLowerCase();
}

/** A validation error for a tag query, or null. */
export function validateTag(query: TagQuery): string | null {
	const tag = normalizeTag(query.tag);
	if (tag === '') return 'tag: empty tag';
	if (/\s/.test(tag)) return `tag: "${query.tag}" contains whitespace, which no tag can`;
	return null;
}

/** `getAllTags` of a note's metadata, or null when it is not indexed. */
function tagsOfMetadata(meta: CachedMetadata | null): readonly string[] | null {
	return meta ? getAllTags(meta) : null;
}

/** Notes carrying the tag or any tag nested under it, in frontmatter or body. */
export function tagQuery(ctx: QueryContext, query: TagQuery): QueryOutcome {
	const wanted = normalizeTag(query.tag);
	const nested = `${wanted}/`;
	const hits: Hit[] = [];
	const seenTags = new Set<string>();
	// A vault writes the same few hundred tags thousands of times: normalize each spelling once.
	const normalized = new Map<string, string>();
	const normalize = (raw: string): string => {
		let tag = normalized.get(raw);
		if (tag === undefined) normalized.set(raw, (tag = normalizeTag(raw)));
		return tag;
	};
	for (const path of ctx.scope.notes) {
		const raw = ctx.source.allTags ? ctx.source.allTags(path) : tagsOfMetadata(ctx.source.getMetadata(path));
		if (raw === null) continue;
		let hit = false;
		for (const spelling of raw) {
			const tag = normalize(spelling);
			seenTags.add(tag);
			if (tag === wanted || tag.startsWith(nested)) hit = true;
		}
		if (hit) hits.push({ path });
	}
	const suggestions = hits.length === 0 ? closest(wanted, seenTags).map((tag) => `did you mean #${tag}?`) : [];
	return { hits, suggestions, dependsOnFrontmatter: true };
}
