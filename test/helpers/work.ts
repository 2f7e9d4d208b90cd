/**
 * Work counted, not timed: while a synchronous call runs, the string and regex built-ins every text
 * scanner goes through count the characters they touch — one per `charCodeAt`, the span an
 * `indexOf` or a regex `exec` searched, the length of a slice or a lower-cased copy — and
 * `Intl.Segmenter` counts what it is handed. A linear scanner touches a few characters per
 * character of input at any size; a quadratic one touches more per character the longer the input,
 * so {@link expectLinear} compares the work on an input and on one twice as long. The count is the
 * same on a loaded machine as on a quiet one. What it cannot see is a single regex backtracking
 * inside one `exec`: such a hang runs into the test's timeout instead.
 */
import { expect } from 'vitest';

/** Characters the counted built-ins touched, and the longest text handed to `Intl.Segmenter`. */
export interface Work {
	chars: number;
	longestSegmented: number;
}

type Method = (this: unknown, ...args: unknown[]) => unknown;

let counting: Work | null = null;

/** Replaces `proto[name]` by a wrapper that adds `cost(…)` to the running count; returns the undo. */
function wrap(
	proto: object,
	name: string,
	cost: (self: unknown, args: unknown[], result: unknown, work: Work) => number,
): () => void {
	const original = (proto as Record<string, Method>)[name]!;
	const wrapper = function (this: unknown, ...args: unknown[]): unknown {
		const result = Reflect.apply(original, this, args);
		if (counting !== null) {
			const work = counting;
			counting = null; // the cost functions must not count themselves
			work.chars += Math.max(1, cost(this, args, result, work));
			counting = work;
		}
		return result;
	};
	Object.defineProperty(proto, name, { value: wrapper, writable: true, configurable: true });
	return () => Object.defineProperty(proto, name, { value: original, writable: true, configurable: true });
}

const length = (self: unknown): number => String(self).length;
const resultLength = (_self: unknown, _args: unknown[], result: unknown): number =>
	typeof result === 'string' ? result.length : 0;
/** The span a forward search read: from its start to the end of the match, or to the end of the text. */
const forwardSpan = (self: unknown, args: unknown[]): number => {
	const text = String(self);
	const needle = String(args[0]);
	const from = Math.min(Math.max(Number(args[1] ?? 0) || 0, 0), text.length);
	const found = text.indexOf(needle, from); // not counted: the wrapper pauses the count
	return (found < 0 ? text.length : found + needle.length) - from;
};
/** The span a backward search read: from its start back to the match, or to the text's start. */
const backwardSpan = (self: unknown, args: unknown[], result: unknown): number => {
	const text = String(self);
	const from = args[1] === undefined ? text.length : Math.min(Math.max(Number(args[1]) || 0, 0), text.length);
	return from - Math.max(0, Number(result));
};

/** Replaces RegExp's exec by one that counts from where it started to the match's end (or the text's end). */
function wrapExec(): () => void {
	// eslint-disable-next-line @typescript-eslint/unbound-method -- called with its regex through Reflect.apply
	const original = RegExp.prototype.exec;
	Object.defineProperty(RegExp.prototype, 'exec', {
		value: function (this: RegExp, input: string): RegExpExecArray | null {
			const scanning = this.global || this.sticky;
			const start = scanning ? this.lastIndex : 0;
			const match = Reflect.apply(original, this, [input]);
			const work = counting;
			if (work !== null) {
				counting = null; // reading the regex's source must not count
				const text = String(input);
				// A failed search read to the end, unless it could only match where it started.
				const anchored = this.sticky || (this.source.startsWith('^') && !this.multiline);
				const end = match === null ? (anchored ? start + 1 : text.length) : match.index + match[0].length;
				work.chars += Math.max(1, end - Math.min(start, text.length));
				counting = work;
			}
			return match;
		},
		writable: true,
		configurable: true,
	});
	return () =>
		Object.defineProperty(RegExp.prototype, 'exec', { value: original, writable: true, configurable: true });
}

/** Installs the counting wrappers; returns the undo. */
function instrument(): () => void {
	const undo = [
		...['charCodeAt', 'codePointAt', 'charAt', 'at'].map((name) => wrap(String.prototype, name, () => 1)),
		wrap(String.prototype, 'indexOf', forwardSpan),
		wrap(String.prototype, 'includes', forwardSpan),
		wrap(String.prototype, 'lastIndexOf', backwardSpan),
		...['startsWith', 'endsWith'].map((name) =>
			wrap(String.prototype, name, (_self, args) => String(args[0]).length),
		),
		// A slice shares its parent's characters (V8 copies only short ones): what is read of it counts later.
		...['slice', 'substring', 'substr'].map((name) => wrap(String.prototype, name, () => 1)),
		// Trimming reads the white space it drops.
		...['trim', 'trimStart', 'trimEnd'].map((name) =>
			wrap(String.prototype, name, (self, _args, result) => length(self) - String(result).length),
		),
		...['repeat', 'padStart', 'padEnd'].map((name) => wrap(String.prototype, name, resultLength)),
		...['toLowerCase', 'toUpperCase', 'toLocaleLowerCase', 'normalize', 'split', 'replace', 'replaceAll'].map(
			(name) => wrap(String.prototype, name, length),
		),
		// test, match, replace, split and search with a regex all go through exec once it is replaced.
		wrapExec(),
		wrap(Intl.Segmenter.prototype, 'segment', (_self, args, _result, work) => {
			const n = String(args[0]).length;
			work.longestSegmented = Math.max(work.longestSegmented, n);
			return n;
		}),
	];
	return () => undo.reverse().forEach((u) => u());
}

/** Runs `fn` (synchronous) and counts its work. */
export function countWork<T>(fn: () => T): { value: T; work: Work } {
	const work: Work = { chars: 0, longestSegmented: 0 };
	const undo = instrument();
	counting = work;
	try {
		return { value: fn(), work };
	} finally {
		counting = null;
		undo();
	}
}

/** Runs `fn` (asynchronous: nothing else may run meanwhile, or it is counted too) and counts its work. */
export async function countWorkAsync<T>(fn: () => Promise<T>): Promise<{ value: T; work: Work }> {
	const work: Work = { chars: 0, longestSegmented: 0 };
	const undo = instrument();
	counting = work;
	try {
		return { value: await fn(), work };
	} finally {
		counting = null;
		undo();
	}
}

/**
 * Fails unless `run` does about twice the work on an input twice as long: `make(n)` builds the
 * input of size `n`. Linear work doubles (×2); quadratic work quadruples (×4); up to ×2.5 passes.
 */
export function expectLinear(
	what: string,
	make: (n: number) => string,
	run: (input: string) => unknown,
	n: number,
): void {
	const [small, large] = [make(n), make(2 * n)];
	const once = countWork(() => run(small)).work.chars;
	const twice = countWork(() => run(large)).work.chars;
	expect(twice / once, `${what}: ${once} characters touched at size ${n}, ${twice} at ${2 * n}`).toBeLessThanOrEqual(
		2.5,
	);
}
