/**
 * List methods ("Functions", List type). `filter`, `map` and `reduce` evaluate their argument per
 * element with `value`, `index` (and `acc`) bound; every element visited counts against the step budget.
 */
import { fn, type Call, type FunctionTable } from './fn-types';
import { median, minOf, numbers, stddev } from './list-helpers';
import { compareValues, equals, textOf, truthy, typeOf, type Value } from './values';

const MAX_LIST = 100_000; // why: `flat` and `+` must not build lists far beyond any vault's.

const self = (c: Call): readonly Value[] => c.self as readonly Value[];

function numArg(c: Call, i: number): number {
	const v = c.args[i]!;
	if (typeof v !== 'number') return c.env.fail(`argument ${i + 1} must be a number, not ${typeOf(v)}`);
	return v;
}

function includes(list: readonly Value[], v: Value): boolean {
	return list.some((x) => equals(x, v));
}

/** Methods of lists. */
export const LIST_FUNCTIONS: FunctionTable = {
	contains: fn('list.contains(value: any): boolean', 1, 1, (c) => {
		c.env.budget.spend(self(c).length);
		return includes(self(c), c.args[0]!);
	}),
	containsAll: fn('list.containsAll(...values: any): boolean', 1, 100, (c) => {
		c.env.budget.spend(self(c).length * c.args.length);
		return c.args.every((v) => includes(self(c), v));
	}),
	containsAny: fn('list.containsAny(...values: any): boolean', 1, 100, (c) => {
		// One list argument is the list of candidates (`containsAny(this.related)`).
		const wanted = c.args.length === 1 && Array.isArray(c.args[0]) ? (c.args[0] as Value[]) : c.args;
		c.env.budget.spend(self(c).length * wanted.length);
		return wanted.some((v) => includes(self(c), v));
	}),
	filter: fn(
		'list.filter(value: Boolean): list',
		1,
		1,
		(c) => self(c).filter((value, index) => truthy(c.env.evalWith(c.nodes[0]!, { value, index }))),
		true,
	),
	map: fn(
		'list.map(value: Any): list',
		1,
		1,
		(c) => self(c).map((value, index) => c.env.evalWith(c.nodes[0]!, { value, index })),
		true,
	),
	reduce: fn(
		'list.reduce(expression: Any, acc: Any): Any',
		2,
		2,
		(c) => {
			let acc = c.env.evalWith(c.nodes[1]!, {});
			self(c).forEach((value, index) => {
				acc = c.env.evalWith(c.nodes[0]!, { value, index, acc });
			});
			return acc;
		},
		true,
	),
	flat: fn('list.flat(): list', 0, 0, (c) => {
		const out: Value[] = [];
		for (const v of self(c)) {
			if (Array.isArray(v)) out.push(...(v as Value[]));
			else out.push(v);
			if (out.length > MAX_LIST) c.env.fail(`the list would exceed ${MAX_LIST} elements`);
		}
		c.env.budget.spend(out.length);
		return out;
	}),
	isEmpty: fn('list.isEmpty(): boolean', 0, 0, (c) => self(c).length === 0),
	join: fn('list.join(separator: string): string', 0, 1, (c) => {
		c.env.budget.spend(self(c).length);
		return self(c)
			.map(textOf)
			.join(c.args.length > 0 ? textOf(c.args[0]!) : ',');
	}),
	reverse: fn('list.reverse(): list', 0, 0, (c) => [...self(c)].reverse()),
	slice: fn('list.slice(start: number, end?: number): list', 1, 2, (c) =>
		self(c).slice(numArg(c, 0), c.args.length > 1 ? numArg(c, 1) : undefined),
	),
	sort: fn('list.sort(): list', 0, 0, (c) => {
		c.env.budget.spend(self(c).length);
		return [...self(c)].sort(compareValues);
	}),
	unique: fn('list.unique(): list', 0, 0, (c) => {
		c.env.budget.spend(self(c).length * 2);
		const out: Value[] = [];
		for (const v of self(c)) if (!includes(out, v)) out.push(v);
		return out;
	}),
	// Used by Obsidian's own summary example (`values.mean().round(3)`) and the default summaries.
	mean: fn('list.mean(): number', 0, 0, (c) => {
		const ns = numbers(self(c));
		return ns.length === 0 ? null : ns.reduce((a, b) => a + b, 0) / ns.length;
	}),
	sum: fn('list.sum(): number', 0, 0, (c) => numbers(self(c)).reduce((a, b) => a + b, 0)),
	min: fn('list.min(): number', 0, 0, (c) => minOf(self(c), -1)),
	max: fn('list.max(): number', 0, 0, (c) => minOf(self(c), 1)),
	median: fn('list.median(): number', 0, 0, (c) => median(numbers(self(c)))),
	stddev: fn('list.stddev(): number', 0, 0, (c) => stddev(numbers(self(c)))),
};
