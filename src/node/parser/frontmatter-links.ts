/**
 * Links in frontmatter: every string property value (at any depth) written as a wikilink
 * `[[…]]` becomes a link keyed by its dotted property path. Markdown links and `#tags` in
 * property values are deliberately not indexed — Obsidian does not index them either.
 */
import type { FrontMatter, FrontmatterLinkCache } from '../../core/metadata';
import { parseWikilinkInner } from './wikilink';

/** Walk one value, appending links found under the dotted `key`. */
function walk(value: unknown, key: string, out: FrontmatterLinkCache[]): void {
	if (typeof value === 'string') {
		if (value.length >= 4 && value.startsWith('[[') && value.endsWith(']]')) {
			const parts = parseWikilinkInner(value, 2, value.length - 2);
			if (parts !== null) out.push({ key, link: parts.link, original: value, displayText: parts.displayText });
		}
		return;
	}
	if (Array.isArray(value)) {
		for (let i = 0; i < value.length; i++) walk(value[i], `${key}.${i}`, out);
		return;
	}
	if (typeof value === 'object' && value !== null) {
		const obj = value as Record<string, unknown>;
		for (const k of Object.keys(obj)) walk(obj[k], `${key}.${k}`, out);
	}
}

/** All wikilinks in a frontmatter object, in property order (`[]` when there are none). */
export function collectFrontmatterLinks(frontmatter: FrontMatter): FrontmatterLinkCache[] {
	const out: FrontmatterLinkCache[] = [];
	for (const k of Object.keys(frontmatter)) walk(frontmatter[k], k, out);
	return out;
}
