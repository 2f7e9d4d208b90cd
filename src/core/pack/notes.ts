/**
 * Note-level rules of context packs: which frontmatter date labels a source, and which notes
 * are left out unless asked for (drafts, archived notes).
 */
import { dayString, parseDate } from '../schema/dates';
import type { CachedMetadata, FrontMatter } from '../metadata';
import { getAllTags } from '../obsidian-rules';
import { propertyValue, yamlScalars } from '../yaml-values';

/**
 * Frontmatter keys read for a source's date, first usable one wins (keys compare
 * case-insensitively): the seed's `date`, then the usual "last changed" keys, then the
 * "first written" ones. A value counts when it is a day (`2023-09-12`, with or without a time,
 * or `[[2023-09-12]]`); template placeholders such as `{{date}}` do not.
 */
export const DATE_KEYS = ['date', 'updated', 'modified', 'last_modified', 'lastmod', 'created', 'published'] as const;

/** A note's date for the pack, and the key it came from. */
export interface NoteDate {
	date: string;
	key: string;
}

/** The note's date by {@link DATE_KEYS}, or null (the pack says "undated"). */
export function noteDate(frontmatter: FrontMatter | undefined): NoteDate | null {
	if (!frontmatter) return null;
	const keys = Object.keys(frontmatter);
	for (const wanted of DATE_KEYS) {
		const key = keys.find((k) => k.toLowerCase() === wanted);
		if (key === undefined) continue;
		const value = frontmatter[key];
		for (const v of Array.isArray(value) ? value : [value]) {
			const parsed = parseDate(v);
			if (parsed !== null) return { date: dayString(parsed.ms), key };
		}
	}
	return null;
}

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
