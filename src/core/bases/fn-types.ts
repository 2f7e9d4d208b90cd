/** The shape of a Bases function: global (`if(…)`) or a method of a type (`"a".lower()`). */
import type { Node } from './ast';
import type { FileModel } from './data';
import type { StepBudget } from './errors';
import type { Value } from './values';

/** What a function can reach while it runs. */
export interface Env {
	readonly model: FileModel;
	/** The row being evaluated (null in summaries and in `this`-only contexts). */
	readonly row: string | null;
	/** `this`: the base file, the embedding note or `--this`; null when none. */
	readonly thisPath: string | null;
	/** The evaluation's one clock reading, so `now()` is the same in every row. */
	readonly now: number;
	readonly budget: StepBudget;
	/** Evaluate `node` with extra names bound (`value`, `index`, `acc`). */
	evalWith(node: Node, locals: Readonly<Record<string, Value>>): Value;
	/** Throw a {@link BaseError} about the current call. */
	fail(message: string): never;
}

/** One call: the receiver (methods), the evaluated arguments (or only the nodes, for lazy functions). */
export interface Call {
	readonly name: string;
	readonly self: Value;
	readonly args: readonly Value[];
	readonly nodes: readonly Node[];
	readonly env: Env;
}

/** A function: its documented signature, argument count and body. */
export interface BaseFunction {
	readonly signature: string;
	readonly min: number;
	readonly max: number;
	/** Arguments are passed unevaluated (`if`, `filter`, `map`, `reduce`). */
	readonly lazy?: boolean;
	call(c: Call): Value;
}

/** A table of functions by name. */
export type FunctionTable = Readonly<Record<string, BaseFunction>>;

/** Shorthand for a table entry. */
export function fn(signature: string, min: number, max: number, call: (c: Call) => Value, lazy = false): BaseFunction {
	return { signature, min, max, call, lazy };
}
