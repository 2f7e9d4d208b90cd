/**
 * Obsidian's own helper functions (`getAllTags`, `parseFrontMatterTags`,
 * `parseFrontMatterAliases`, `parseLinktext`), reimplemented as pure functions so core, the
 * CLI and the plugin agree. Behaviour is judged by shared/conformance/obsidian-1.9.
 */
import type { CachedMetadata, FrontMatter } from './metadata';

/** The value of the first own key matching `pattern` (key order as written), or undefined. */
function firstMatching(frontmatter: FrontMatter, pattern: RegExp): unknown {
	for (const key of Object.keys(frontmatter)) {
		if (pattern.test(key)) return frontmatter[key];
	}
	return undefined;
}

/** A string gives itself, a list gives its string items (trimmed); anything else gives null. */
function stringItems(value: unknown): string[] | null {
	if (typeof value === 'string') return [value.trim()];
	if (!Array.isArray(value)) return null;
	const out: string[] = [];
	for (const item of value) if (typeof item === 'string') out.push(item.trim());
	return out;
}

/**
 * Frontmatter tags as Obsidian reports them: the first key matching /^tags$/i (the singular
 * `tag` is ignored since 1.9); no comma splitting; items empty or holding a space dropped;
 * `#` added when missing; null when the key is absent or empty.
 */
export function parseFrontMatterTags(frontmatter: FrontMatter | null | undefined): string[] | null {
	if (frontmatter === null || frontmatter === undefined) return null;
	const value = firstMatching(frontmatter, /^tags$/i);
	if (value === null || value === undefined) return null;
	const items = stringItems(value);
	if (items === null) return null;
	const out: string[] = [];
	for (const item of items) {
		if (item.length === 0 || item.includes(' ')) continue;
		out.push(item.charCodeAt(0) === 35 ? item : '#' + item);
	}
	return out;
}

/** Frontmatter aliases: the first key matching /^aliases$/i, a string or a list of strings (trimmed); null when absent or empty. */
export function parseFrontMatterAliases(frontmatter: FrontMatter | null | undefined): string[] | null {
	if (frontmatter === null || frontmatter === undefined) return null;
	const value = firstMatching(frontmatter, /^aliases$/i);
	if (value === null || value === undefined) return null;
	return stringItems(value);
}

/** Every tag of a note: frontmatter tags first, then body tags in document order; no de-duplication or case folding. */
export function getAllTags(cache: CachedMetadata): string[] {
	const out = parseFrontMatterTags(cache.frontmatter) ?? [];
	if (cache.tags !== undefined) for (const t of cache.tags) out.push(t.tag);
	return out;
}

/** Split link text at its first `#`: `path` before it, `subpath` from it on (`"a#h"` → `{path: "a", subpath: "#h"}`). */
export function parseLinktext(linktext: string): { path: string; subpath: string } {
	const hash = linktext.indexOf('#');
	if (hash < 0) return { path: linktext, subpath: '' };
	return { path: linktext.slice(0, hash), subpath: linktext.slice(hash) };
}
