/**
 * Dates and durations as the help pages define them: `date("YYYY-MM-DD HH:mm:ss")`, duration text
 * (`"1d"`, `"2 weeks"`, `"1M 4h"`), date ± duration in local calendar time, Moment.js format tokens
 * for `format()`, and Moment's "3 days ago" wording for `relative()`.
 */
import { dateValue, pad, type DateValue, type DurationValue } from './values';

const DAY = 86_400_000;
const UNITS = {
	y: { ms: 0, months: 12 },
	M: { ms: 0, months: 1 },
	w: { ms: 7 * DAY, months: 0 },
	d: { ms: DAY, months: 0 },
	h: { ms: 3_600_000, months: 0 },
	m: { ms: 60_000, months: 0 },
	s: { ms: 1000, months: 0 },
	ms: { ms: 1, months: 0 },
};
const UNIT_NAMES: Record<string, keyof typeof UNITS> = {
	y: 'y',
	year: 'y',
	years: 'y',
	M: 'M',
	month: 'M',
	months: 'M',
	w: 'w',
	week: 'w',
	weeks: 'w',
	d: 'd',
	day: 'd',
	days: 'd',
	h: 'h',
	hour: 'h',
	hours: 'h',
	m: 'm',
	minute: 'm',
	minutes: 'm',
	s: 's',
	second: 's',
	seconds: 's',
	ms: 'ms',
	millisecond: 'ms',
	milliseconds: 'ms',
};

/** Parse duration text (`"1d"`, `"2 weeks"`, `"-3h"`, `"1M 4h"`), or null when it is not one. */
export function parseDuration(text: string): DurationValue | null {
	const trimmed = text.trim();
	if (trimmed === '' || trimmed.length > 200) return null;
	let sign = 1;
	let rest = trimmed;
	if (rest.startsWith('-') || rest.startsWith('+')) {
		sign = rest.startsWith('-') ? -1 : 1;
		rest = rest.slice(1).trim();
	}
	let ms = 0;
	let months = 0;
	const part = /^([0-9]+(?:\.[0-9]+)?)\s*([a-zA-Z]+)\s*,?\s*/;
	while (rest.length > 0) {
		const m = part.exec(rest);
		if (!m) return null;
		const unit = UNIT_NAMES[m[2]!] ?? UNIT_NAMES[m[2]!.toLowerCase()];
		if (!unit) return null;
		const n = Number(m[1]);
		ms += n * UNITS[unit].ms;
		months += n * UNITS[unit].months;
		rest = rest.slice(m[0].length);
	}
	return { kind: 'duration', ms: sign * ms, months: sign * months };
}

/** `date` moved by `sign` × `d`: calendar months first (clamped to the month's last day, as Moment does), then ms. */
export function addDuration(date: DateValue, d: DurationValue, sign: 1 | -1): DateValue {
	let ms = date.ms;
	if (d.months !== 0) {
		const t = new Date(ms);
		const whole = Math.trunc(d.months) * sign;
		const day = t.getDate();
		t.setDate(1);
		t.setMonth(t.getMonth() + whole);
		const last = new Date(t.getFullYear(), t.getMonth() + 1, 0).getDate();
		t.setDate(Math.min(day, last));
		ms = t.getTime() + (d.months - Math.trunc(d.months)) * sign * 30 * DAY;
	}
	ms += d.ms * sign;
	const time = date.time || d.ms % DAY !== 0;
	return dateValue(ms, time);
}

const DATE_RE =
	/^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3})\d*)?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/;

/** Parse a date the way properties and `date()` write them (`2025-05-27`, `2025-05-27 10:00:00`, ISO 8601); null when not a date. */
export function parseDate(text: string): DateValue | null {
	const m = DATE_RE.exec(text.trim());
	if (!m) return null;
	const [, y, mo, d, h, mi, s, msPart, zone] = m;
	const month = Number(mo) - 1;
	const day = Number(d);
	if (month < 0 || month > 11 || day < 1 || day > 31) return null;
	const hasTime = h !== undefined;
	const parts = [
		Number(y),
		month,
		day,
		Number(h ?? 0),
		Number(mi ?? 0),
		Number(s ?? 0),
		Number((msPart ?? '0').padEnd(3, '0')),
	] as const;
	let ms: number;
	if (zone !== undefined) {
		const offset = zone === 'Z' ? 0 : zoneMinutes(zone);
		ms = Date.UTC(...parts) - offset * 60_000;
	} else ms = new Date(...parts).getTime();
	if (Number.isNaN(ms)) return null;
	return dateValue(ms, hasTime);
}

function zoneMinutes(zone: string): number {
	const m = /^([+-])(\d{2}):?(\d{2})$/.exec(zone)!;
	return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
}

/** Local midnight of the day `ms` falls on. */
export function startOfDay(ms: number): number {
	const t = new Date(ms);
	return new Date(t.getFullYear(), t.getMonth(), t.getDate()).getTime();
}

const MONTHS = [
	'January',
	'February',
	'March',
	'April',
	'May',
	'June',
	'July',
	'August',
	'September',
	'October',
	'November',
	'December',
];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const TOKENS =
	/\[([^\]]*)\]|YYYY|YY|MMMM|MMM|MM|M|Do|DDDD|DD|D|dddd|ddd|dd|d|HH|H|hh|h|mm|m|ss|s|SSS|A|a|ZZ|Z|X|x|E|e|Q|W+|ww|w/g;

/** Format `date` with Moment.js tokens (`YYYY-MM-DD`, `dddd, MMMM Do`, `HH:mm`, `[literal]`), in local time. */
export function formatDate(date: DateValue, format: string): string {
	const t = new Date(date.ms);
	const Y = t.getFullYear();
	const Mo = t.getMonth();
	const D = t.getDate();
	const H = t.getHours();
	const wd = t.getDay();
	const offset = -t.getTimezoneOffset();
	const zone = (sep: string): string =>
		`${offset < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(offset) / 60))}${sep}${pad(Math.abs(offset) % 60)}`;
	return format.replace(TOKENS, (tok, literal: string | undefined) => {
		if (literal !== undefined) return literal;
		switch (tok) {
			case 'YYYY':
				return pad(Y, 4);
			case 'YY':
				return pad(Y % 100);
			case 'MMMM':
				return MONTHS[Mo]!;
			case 'MMM':
				return MONTHS[Mo]!.slice(0, 3);
			case 'MM':
				return pad(Mo + 1);
			case 'M':
				return String(Mo + 1);
			case 'Do':
				return ordinal(D);
			case 'DDDD':
				return pad(dayOfYear(t), 3);
			case 'DD':
				return pad(D);
			case 'D':
				return String(D);
			case 'dddd':
				return DAYS[wd]!;
			case 'ddd':
				return DAYS[wd]!.slice(0, 3);
			case 'dd':
				return DAYS[wd]!.slice(0, 2);
			case 'd':
			case 'e':
				return String(wd);
			case 'E':
				return String(wd === 0 ? 7 : wd);
			case 'HH':
				return pad(H);
			case 'H':
				return String(H);
			case 'hh':
				return pad(H % 12 === 0 ? 12 : H % 12);
			case 'h':
				return String(H % 12 === 0 ? 12 : H % 12);
			case 'mm':
				return pad(t.getMinutes());
			case 'm':
				return String(t.getMinutes());
			case 'ss':
				return pad(t.getSeconds());
			case 's':
				return String(t.getSeconds());
			case 'SSS':
				return pad(t.getMilliseconds(), 3);
			case 'A':
				return H < 12 ? 'AM' : 'PM';
			case 'a':
				return H < 12 ? 'am' : 'pm';
			case 'Z':
				return zone(':');
			case 'ZZ':
				return zone('');
			case 'X':
				return String(Math.floor(date.ms / 1000));
			case 'x':
				return String(date.ms);
			case 'Q':
				return String(Math.floor(Mo / 3) + 1);
			default:
				return tok.startsWith('W') || tok.startsWith('w') ? pad(isoWeek(t), tok.length > 1 ? 2 : 1) : tok;
		}
	});
}

function ordinal(n: number): string {
	const rem = n % 100;
	const suffix = rem >= 11 && rem <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
	return `${n}${suffix}`;
}

function dayOfYear(t: Date): number {
	return (
		Math.round(
			(new Date(t.getFullYear(), t.getMonth(), t.getDate()).getTime() -
				new Date(t.getFullYear(), 0, 1).getTime()) /
				DAY,
		) + 1
	);
}

function isoWeek(t: Date): number {
	const d = new Date(Date.UTC(t.getFullYear(), t.getMonth(), t.getDate()));
	const day = d.getUTCDay() || 7;
	d.setUTCDate(d.getUTCDate() + 4 - day);
	const yearStart = Date.UTC(d.getUTCFullYear(), 0, 1);
	return Math.ceil(((d.getTime() - yearStart) / DAY + 1) / 7);
}

/** Moment's `fromNow()`: "a few seconds ago", "3 days ago", "in 2 months". */
export function relativeText(ms: number, now: number): string {
	const diff = ms - now;
	const s = Math.abs(diff) / 1000;
	const min = s / 60;
	const h = min / 60;
	const d = h / 24;
	let phrase: string;
	if (s < 45) phrase = 'a few seconds';
	else if (s < 90) phrase = 'a minute';
	else if (min < 45) phrase = `${Math.round(min)} minutes`;
	else if (min < 90) phrase = 'an hour';
	else if (h < 22) phrase = `${Math.round(h)} hours`;
	else if (h < 36) phrase = 'a day';
	else if (d < 26) phrase = `${Math.round(d)} days`;
	else if (d < 46) phrase = 'a month';
	else if (d < 320) phrase = `${Math.round(d / 30.4)} months`;
	else if (d < 548) phrase = 'a year';
	else phrase = `${Math.round(d / 365.25)} years`;
	return diff <= 0 ? `${phrase} ago` : `in ${phrase}`;
}
