/**
 * Note-level rules of context packs: which notes are left out unless asked for (drafts, archived
 * notes). A source's date follows the one rule of core/note-date.ts.
 */
import type { CachedMetadata } from '../metadata';
import { getAllTags } from '../obsidian-rules';
import { propertyValue, yamlScalars } from '../yaml-values';

/** Why a note is left out of packs by default, or null. */
export type Exclusion = 'draft' | 'archived';

/** Lower-cased strings of a property value (a string or a list of them). */
function values(value: unknown): string[] {
	return yamlScalars(value)
		.filter((v): v is string => typeof v === 'string')
		.map((v) => v.trim().toLowerCase());
}

/**
 * `draft` when `status` is draft; `archived` when `status` is archived/archive, `archived` is
 * true, or a tag (frontmatter or inline) is #archive or #archived or under them (#archive/2023).
 */
export function exclusionOf(meta: CachedMetadata | null): Exclusion | null {
	const fm = meta?.frontmatter ?? {};
	const status = values(propertyValue(fm, 'status'));
	if (status.includes('draft')) return 'draft';
	if (status.includes('archived') || status.includes('archive')) return 'archived';
	if (propertyValue(fm, 'archived') === true) return 'archived';
	const tags = meta ? getAllTags(meta) : [];
	if (tags.some((t) => /^#archived?(?:\/|$)/i.test(t))) return 'archived';
	return null;
}
