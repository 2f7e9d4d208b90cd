/** Number methods ("Functions", Number type). */
import { fn, type Call, type FunctionTable } from './fn-types';
import { typeOf } from './values';

const self = (c: Call): number => c.self as number;

function digits(c: Call, i: number, fallback: number): number {
	if (c.args.length <= i) return fallback;
	const v = c.args[i]!;
	if (typeof v !== 'number') return c.env.fail(`argument ${i + 1} must be a number, not ${typeOf(v)}`);
	return Math.min(100, Math.max(0, Math.floor(v)));
}

/** Methods of numbers. */
export const NUMBER_FUNCTIONS: FunctionTable = {
	abs: fn('number.abs(): number', 0, 0, (c) => Math.abs(self(c))),
	ceil: fn('number.ceil(): number', 0, 0, (c) => Math.ceil(self(c))),
	floor: fn('number.floor(): number', 0, 0, (c) => Math.floor(self(c))),
	isEmpty: fn('number.isEmpty(): boolean', 0, 0, () => false),
	round: fn('number.round(digits?: number): number', 0, 1, (c) => {
		const d = digits(c, 0, 0);
		const factor = 10 ** d;
		return Math.round((self(c) + Number.EPSILON) * factor) / factor;
	}),
	toFixed: fn('number.toFixed(precision: number): string', 1, 1, (c) => self(c).toFixed(digits(c, 0, 0))),
};
