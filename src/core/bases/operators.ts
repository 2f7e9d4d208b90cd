/**
 * The operators ("Bases syntax", Operators): arithmetic on numbers, date ± duration (a duration may
 * be written as text, `now() - "7d"`), date − date as a duration, `+` joining text, comparisons of
 * numbers, dates (a date compares with date text) and text, and equality of any values.
 */
import { addDuration, parseDate, parseDuration } from './dates';
import {
	compareValues,
	equals,
	numericOf,
	textOf,
	typeOf,
	type DateValue,
	type DurationValue,
	type Value,
} from './values';

/** A duration from a duration value, number of ms, or duration text; null when `v` is none of these. */
function durationOf(v: Value): DurationValue | null {
	const t = typeOf(v);
	if (t === 'duration') return v as DurationValue;
	if (typeof v === 'string') return parseDuration(v);
	return null;
}

/** A date from a date value or date text. */
function dateOf(v: Value): DateValue | null {
	if (typeOf(v) === 'date') return v as DateValue;
	if (typeof v === 'string') return parseDate(v);
	return null;
}

/** `left op right` for an arithmetic operator; a message when the types do not combine. */
export function arithmetic(op: string, left: Value, right: Value): Value | { error: string } {
	if (left === null || right === null) return null;
	const lt = typeOf(left);
	const rt = typeOf(right);
	if (lt === 'date' && (op === '+' || op === '-')) {
		if (op === '-') {
			const other = rt === 'date' ? (right as DateValue) : null;
			if (other) return { kind: 'duration', ms: (left as DateValue).ms - other.ms, months: 0 };
		}
		const d =
			typeof right === 'number'
				? ({ kind: 'duration', ms: right, months: 0 } as DurationValue)
				: durationOf(right);
		if (d) return addDuration(left as DateValue, d, op === '+' ? 1 : -1);
		if (op === '-' && typeof right === 'string') {
			const other = dateOf(right);
			if (other) return { kind: 'duration', ms: (left as DateValue).ms - other.ms, months: 0 };
		}
	}
	if (op === '+' && (lt === 'string' || rt === 'string')) return textOf(left) + textOf(right);
	if (op === '+' && lt === 'list' && rt === 'list') return [...(left as Value[]), ...(right as Value[])];
	if (lt === 'duration') {
		const d = left as DurationValue;
		const other = durationOf(right);
		if (other && (op === '+' || op === '-')) {
			const s = op === '+' ? 1 : -1;
			return { kind: 'duration', ms: d.ms + s * other.ms, months: d.months + s * other.months };
		}
		if (typeof right === 'number' && (op === '*' || op === '/')) {
			const f = op === '*' ? right : 1 / right;
			return { kind: 'duration', ms: d.ms * f, months: d.months * f };
		}
	}
	const a = lt === 'number' || lt === 'boolean' || lt === 'duration' ? numericOf(left) : null;
	const b = rt === 'number' || rt === 'boolean' || rt === 'duration' ? numericOf(right) : null;
	if (a === null || b === null) return { error: `cannot apply "${op}" to ${lt} and ${rt}` };
	switch (op) {
		case '+':
			return a + b;
		case '-':
			return a - b;
		case '*':
			return a * b;
		case '/':
			return a / b;
		default:
			return a % b;
	}
}

/** `left op right` for a comparison or equality operator. */
export function compare(op: string, left: Value, right: Value): boolean {
	const [l, r] = aligned(left, right);
	if (op === '==') return equals(l, r);
	if (op === '!=') return !equals(l, r);
	if (l === null || r === null) return false;
	const lt = typeOf(l);
	const rt = typeOf(r);
	const comparable =
		(numericOf(l) !== null && numericOf(r) !== null) || (lt === 'string' && rt === 'string') || lt === rt;
	if (!comparable) return false;
	const c = compareValues(l, r);
	switch (op) {
		case '<':
			return c < 0;
		case '>':
			return c > 0;
		case '<=':
			return c <= 0;
		default:
			return c >= 0;
	}
}

/** A date compared with text reads the text as a date; a duration compared with a number as ms. */
function aligned(left: Value, right: Value): [Value, Value] {
	const lt = typeOf(left);
	const rt = typeOf(right);
	if (lt === 'date' && rt === 'string') return [left, dateOf(right) ?? right];
	if (rt === 'date' && lt === 'string') return [dateOf(left) ?? left, right];
	if (lt === 'duration' && rt === 'number') return [numericOf(left), right];
	if (rt === 'duration' && lt === 'number') return [left, numericOf(right)];
	return [left, right];
}
