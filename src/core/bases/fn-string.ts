/** String methods ("Functions", String type), regex arguments through the bounded matcher. */
import { fn, type Call, type FunctionTable } from './fn-types';
import { regexMatches, regexOf, replaceRegex, splitRegex } from './regex';
import { textOf, typeOf, type RegexValue, type Value } from './values';

const MAX_TEXT = 1_000_000; // why: `repeat` must not build a string no view could show.

function str(c: Call, i: number): string {
	const v = c.args[i]!;
	if (typeof v !== 'string') c.env.fail(`argument ${i + 1} must be a string, not ${typeOf(v)}`);
	return v;
}

function num(c: Call, i: number): number {
	const v = c.args[i]!;
	if (typeof v !== 'number') c.env.fail(`argument ${i + 1} must be a number, not ${typeOf(v)}`);
	return v;
}

const self = (c: Call): string => c.self as string;

/** Methods of strings. */
export const STRING_FUNCTIONS: FunctionTable = {
	contains: fn('string.contains(value: string): boolean', 1, 1, (c) => self(c).includes(textOf(c.args[0]!))),
	containsAll: fn('string.containsAll(...values: string): boolean', 1, 100, (c) =>
		c.args.every((v) => self(c).includes(textOf(v))),
	),
	containsAny: fn('string.containsAny(...values: string): boolean', 1, 100, (c) =>
		c.args.some((v) => self(c).includes(textOf(v))),
	),
	endsWith: fn('string.endsWith(query: string): boolean', 1, 1, (c) => self(c).endsWith(str(c, 0))),
	startsWith: fn('string.startsWith(query: string): boolean', 1, 1, (c) => self(c).startsWith(str(c, 0))),
	isEmpty: fn('string.isEmpty(): boolean', 0, 0, (c) => self(c).length === 0),
	lower: fn('string.lower(): string', 0, 0, (c) => self(c).toLowerCase()),
	upper: fn('string.upper(): string', 0, 0, (c) => self(c).toUpperCase()),
	title: fn('string.title(): string', 0, 0, (c) =>
		self(c).replace(/(^|[\s\-_([{"'])(\p{L})/gu, (_, pre: string, ch: string) => pre + ch.toUpperCase()),
	),
	trim: fn('string.trim(): string', 0, 0, (c) => self(c).trim()),
	reverse: fn('string.reverse(): string', 0, 0, (c) => [...self(c)].reverse().join('')),
	repeat: fn('string.repeat(count: number): string', 1, 1, (c) => {
		const n = Math.max(0, Math.floor(num(c, 0)));
		if (self(c).length * n > MAX_TEXT) c.env.fail(`the result would exceed ${MAX_TEXT} characters`);
		c.env.budget.spend(n);
		return self(c).repeat(n);
	}),
	slice: fn('string.slice(start: number, end?: number): string', 1, 2, (c) =>
		self(c).slice(num(c, 0), c.args.length > 1 ? num(c, 1) : undefined),
	),
	replace: fn('string.replace(pattern: string | Regexp, replacement: string): string', 2, 2, (c) => {
		const pattern = c.args[0]!;
		const replacement = str(c, 1);
		if (typeOf(pattern) === 'regexp') return replaceRegex(c, self(c), pattern as RegexValue, replacement);
		return self(c).replace(textOf(pattern), () => replacement);
	}),
	split: fn('string.split(separator: string | Regexp, n?: number): list', 1, 2, (c) => {
		const limit = c.args.length > 1 ? Math.max(0, Math.floor(num(c, 1))) : undefined;
		const sep = c.args[0]!;
		const parts: Value[] =
			typeOf(sep) === 'regexp' ? splitRegex(c, self(c), sep as RegexValue) : self(c).split(textOf(sep));
		c.env.budget.spend(parts.length);
		return limit === undefined ? parts : parts.slice(0, limit);
	}),
	matches: fn('string.matches(pattern: Regexp | string): boolean', 1, 1, (c) =>
		regexMatches(regexOf(c, c.args[0]!), self(c)),
	),
};
