/**
 * The one error a base raises: a parse, type or evaluation problem that names the expression, the
 * position in it and the function involved, so a view is never silently empty.
 */

/** What went wrong while reading or evaluating a base expression. */
export class BaseError extends Error {
	/** The expression text the problem is in ('' when it is about the file, not an expression). */
	readonly expression: string;
	/** 0-based character offset inside {@link expression}, or -1. */
	readonly position: number;
	/** The function (or operator) involved, when there is one. */
	readonly fn: string | null;

	constructor(message: string, expression = '', position = -1, fn: string | null = null) {
		super(describe(message, expression, position, fn));
		this.name = 'BaseError';
		this.expression = expression;
		this.position = position;
		this.fn = fn;
	}
}

function describe(message: string, expression: string, position: number, fn: string | null): string {
	const where = fn ? `${fn}: ` : '';
	if (expression === '') return `${where}${message}`;
	const at = position >= 0 ? ` at position ${position + 1}` : '';
	return `${where}${message}${at} in \`${expression}\``;
}

/** The step budget of one evaluation: every node visited and every list element a function touches counts. */
export class StepBudget {
	private used = 0;
	constructor(readonly limit: number) {}

	/** Count `n` steps; throws a {@link BaseError} past the limit (an expression that would run too long). */
	spend(n = 1): void {
		this.used += n;
		if (this.used > this.limit)
			throw new BaseError(`evaluation stopped after ${this.limit} steps (the expression is too costly)`);
	}

	/** Steps counted so far. */
	get steps(): number {
		return this.used;
	}
}
