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

/** Notes carrying the tag or any tag nested under it, in frontmatter or body. */
export function tagQuery(ctx: QueryContext, query: TagQuery): QueryOutcome {
	const wanted = normalizeTag(query.tag);
	const nested = `${wanted}/`;
	const hits: Hit[] = [];
	const seenTags = new Set<string>();
	for (const path of ctx.scope.notes) {
		const meta = ctx.source.getMetadata(path);
		if (!meta) continue;
		const tags = (getAllTags(meta) ?? []).map(normalizeTag);
		for (const tag of tags) seenTags.add(tag);
		if (tags.some((tag) => tag === wanted || tag.startsWith(nested))) hits.push({ path });
	}
	const suggestions = hits.length === 0 ? closest(wanted, seenTags).map((tag) => `did you mean #${tag}?`) : [];
	return { hits, suggestions, dependsOnFrontmatter: true };
}
