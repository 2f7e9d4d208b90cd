/** Date methods and fields ("Functions", Date type) and the fields of durations. */
import { formatDate, relativeText, startOfDay } from './dates';
import { fn, type Call, type FunctionTable } from './fn-types';
import { dateValue, MONTH_MS, pad, textOf, type DateValue, type DurationValue, type Value } from './values';

const self = (c: Call): DateValue => c.self as DateValue;

/** Methods of dates. */
export const DATE_FUNCTIONS: FunctionTable = {
	date: fn('date.date(): date', 0, 0, (c) => dateValue(startOfDay(self(c).ms), false)),
	format: fn('date.format(format: string): string', 1, 1, (c) => formatDate(self(c), textOf(c.args[0]!))),
	time: fn('date.time(): string', 0, 0, (c) => {
		const t = new Date(self(c).ms);
		return `${pad(t.getHours())}:${pad(t.getMinutes())}:${pad(t.getSeconds())}`;
	}),
	relative: fn('date.relative(): string', 0, 0, (c) => relativeText(self(c).ms, c.env.now)),
	isEmpty: fn('date.isEmpty(): boolean', 0, 0, () => false),
};

/** `date.year` … `date.millisecond`, or undefined for another name. */
export function dateField(d: DateValue, name: string): Value | undefined {
	const t = new Date(d.ms);
	switch (name) {
		case 'year':
			return t.getFullYear();
		case 'month':
			return t.getMonth() + 1;
		case 'day':
			return t.getDate();
		case 'hour':
			return t.getHours();
		case 'minute':
			return t.getMinutes();
		case 'second':
			return t.getSeconds();
		case 'millisecond':
			return t.getMilliseconds();
		default:
			return undefined;
	}
}

const DAY = 86_400_000;
const IN_MS: Record<string, number> = {
	years: 12 * MONTH_MS,
	months: MONTH_MS,
	weeks: 7 * DAY,
	days: DAY,
	hours: 3_600_000,
	minutes: 60_000,
	seconds: 1000,
	milliseconds: 1,
};

/** A duration's length in a unit (`(now() - birthday).years`), fractional; undefined for another name. */
export function durationField(d: DurationValue, name: string): Value | undefined {
	const per = IN_MS[name];
	if (per === undefined) return undefined;
	return (d.ms + d.months * MONTH_MS) / per;
}
