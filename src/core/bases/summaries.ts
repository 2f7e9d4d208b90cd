/**
 * View summaries ("Bases syntax", Summaries): the default ones (Average, Min, Max, Sum, Range,
 * Median, Stddev, Earliest, Latest, Checked, Unchecked, Empty, Filled, Unique) and a base's own
 * summary formulas, where `values` is the list of the property's values over the rows.
 */
import type { Expression } from './ast';
import { BaseError } from './errors';
import type { Evaluator } from './evaluate';
import { median, minOf, numbers, stddev } from './list-helpers';
import { equals, isEmptyValue, typeOf, type DateValue, type Value } from './values';

type Summary = (values: readonly Value[]) => Value;

function dates(values: readonly Value[]): DateValue[] {
	return values.filter((v): v is DateValue => typeOf(v) === 'date');
}

const DEFAULTS: Record<string, Summary> = {
	Average: (vs) => {
		const ns = numbers(vs);
		return ns.length === 0 ? null : ns.reduce((a, b) => a + b, 0) / ns.length;
	},
	Min: (vs) => minOf(numbers(vs), -1),
	Max: (vs) => minOf(numbers(vs), 1),
	Sum: (vs) => numbers(vs).reduce((a, b) => a + b, 0),
	Range: (vs) => {
		const ds = dates(vs);
		if (ds.length > 0 && numbers(vs).length === 0) {
			const ms = ds.map((d) => d.ms);
			return { kind: 'duration', ms: Math.max(...ms) - Math.min(...ms), months: 0 };
		}
		const ns = numbers(vs);
		return ns.length === 0 ? null : Math.max(...ns) - Math.min(...ns);
	},
	Median: (vs) => median(numbers(vs)),
	Stddev: (vs) => stddev(numbers(vs)),
	Earliest: (vs) => minOf(dates(vs), -1),
	Latest: (vs) => minOf(dates(vs), 1),
	Checked: (vs) => vs.filter((v) => v === true).length,
	Unchecked: (vs) => vs.filter((v) => v === false).length,
	Empty: (vs) => vs.filter(isEmptyValue).length,
	Filled: (vs) => vs.filter((v) => !isEmptyValue(v)).length,
	Unique: (vs) => {
		const seen: Value[] = [];
		for (const v of vs) if (!isEmptyValue(v) && !seen.some((s) => equals(s, v))) seen.push(v);
		return seen.length;
	},
};

/** The names of the default summaries. */
export const DEFAULT_SUMMARIES = Object.keys(DEFAULTS);

/** Summarise `values` with the summary `name`: a default, or one of the base's summary formulas. */
export function summarise(
	name: string,
	values: readonly Value[],
	custom: ReadonlyMap<string, Expression>,
	evaluator: Evaluator,
): Value {
	const own = custom.get(name);
	if (own) return evaluator.forRow(null).evaluate(own, { values });
	const builtIn =
		DEFAULTS[name] ?? DEFAULTS[Object.keys(DEFAULTS).find((k) => k.toLowerCase() === name.toLowerCase()) ?? ''];
	if (!builtIn)
		throw new BaseError(
			`unknown summary "${name}" (defaults: ${DEFAULT_SUMMARIES.join(', ')}${custom.size ? `; this base's: ${[...custom.keys()].join(', ')}` : ''})`,
		);
	return builtIn(values);
}
