import { DEFAULT_DATE_FIELDS } from './settings';
import type { FrontMatter } from './metadata';
import { dayString, parseDate } from './schema/dates';

/**
 * A note's date, one rule for every face and operation (results, context packs, staleness): the
 * first of the date properties (the `dateFields` setting, compared case-insensitively) that holds
 * a day — `2023-09-12`, with or without a time, `[[2023-09-12]]`, or the first such item of a
 * list; template placeholders like `{{date}}` do not count — else the file's modification time,
 * marked as such so nobody mistakes it for a date the author wrote. Null only when neither exists.
 */

/** Where a note's date came from. */
export type DateSource = 'frontmatter' | 'mtime';

/** A day as the faces accept it (`YYYY-MM-DD`): `--today`, `today=`, the handoff's `built_at`. */
export const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** A note's date (`YYYY-MM-DD`, UTC), where it came from, and the property that gave it. */
export interface NoteDate {
	date: string;
	source: DateSource;
	/** The frontmatter key as the note writes it (`Created`), or null for the modification time. */
	key: string | null;
}

/** The day a property value names (the first usable item of a list), or null. */
export function dayOf(value: unknown): string | null {
	for (const item of Array.isArray(value) ? value : [value]) {
		const parsed = parseDate(item);
		if (parsed !== null) return dayString(parsed.ms);
	}
	return null;
}

/** The note's date from its frontmatter by `fields` (first usable wins), or null. */
export function frontmatterDate(
	frontmatter: FrontMatter | undefined,
	fields: readonly string[] = DEFAULT_DATE_FIELDS,
): NoteDate | null {
	if (!frontmatter) return null;
	const keys = Object.keys(frontmatter);
	for (const wanted of fields) {
		const key = keys.find((k) => k.toLowerCase() === wanted.toLowerCase());
		if (key === undefined) continue;
		const date = dayOf(frontmatter[key]);
		if (date !== null) return { date, source: 'frontmatter', key };
	}
	return null;
}

/** The note's date: its frontmatter's by `fields`, else `mtime` (ms) marked as the modification time; null when neither. */
export function noteDate(
	frontmatter: FrontMatter | undefined,
	mtime: number | null,
	fields: readonly string[] = DEFAULT_DATE_FIELDS,
): NoteDate | null {
	const written = frontmatterDate(frontmatter, fields);
	if (written) return written;
	return mtime === null || !Number.isFinite(mtime) ? null : { date: dayString(mtime), source: 'mtime', key: null };
}

/** The contract's date fields of a result: `date` and `date_source` (`mtime` or `frontmatter`), plus `date_key` for a property. */
export function dateFieldsOf(date: NoteDate | null): {
	date: string | null;
	date_source: DateSource | null;
	date_key?: string;
} {
	if (!date) return { date: null, date_source: null };
	return date.key === null
		? { date: date.date, date_source: date.source }
		: { date: date.date, date_source: date.source, date_key: date.key };
}
