/**
 * Dates as frontmatter holds them: `2026-06-01`, `2026-06-01T09:30`, `2026-06-01 09:30:00`, a
 * `[[2026-06-01]]` link to a daily note, or a Date some YAML parsers produce. Compared in UTC
 * milliseconds so that the host's time zone never changes an answer.
 */

/** A parsed date and whether it carried a time of day. */
export interface DateValue {
	ms: number;
	hasTime: boolean;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?$/;
const DAY_MS = 86_400_000;

/** Parse a frontmatter or query date; null when it is not one (including impossible days like 2026-02-30). */
export function parseDate(value: unknown): DateValue | null {
	if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : { ms: value.getTime(), hasTime: true };
	if (typeof value !== 'string') return null;
	const match = DATE.exec(value.trim().replace(/^\[\[(.*?)(\|.*)?\]\]$/, '$1'));
	if (!match) return null;
	const [year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0] = match
		.slice(1)
		.map((part) => (part === undefined ? 0 : Number(part)));
	const ms = Date.UTC(year, month - 1, day, hour, minute, second);
	const check = new Date(ms);
	if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day || hour > 23 || minute > 59 || second > 59)
		return null;
	return { ms, hasTime: match[4] !== undefined };
}

/** The UTC day a date falls on, as milliseconds at midnight. */
export function startOfDay(ms: number): number {
	return Math.floor(ms / DAY_MS) * DAY_MS;
}

/** `days` days before the day of `ms`, at midnight. */
export function daysBefore(ms: number, days: number): number {
	return startOfDay(ms) - days * DAY_MS;
}

/** `YYYY-MM-DD` of a time in ms (UTC). */
export function dayString(ms: number): string {
	return new Date(ms).toISOString().slice(0, 10);
}
