/**
 * The expression language's edges: errors name the expression, the position and the function;
 * unknown functions list the supported ones; formulas that reach themselves are refused with the
 * cycle; regexes run on the linear-time engine and refuse what it cannot do; and a fuzzed parser
 * throws nothing but our typed error, within a bounded number of steps.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { baseData, BaseError, evaluateExpression, plainOf, type BaseData } from '../../src/core/bases/index';
import { compile, ROW_STEPS } from '../../src/core/bases/evaluate';
import { scopeRules } from '../../src/core/scope';
import { MemorySource } from '../helpers/memory-source';

async function data(
	files: Record<string, string> = { 'a.md': '---\nn: 3\nlinks: "[[b]]"\n---\n[[b]] #x/y', 'b.md': 'B' },
): Promise<BaseData> {
	const source = new MemorySource(files);
	return baseData({
		source,
		rules: scopeRules(source, { excludedFolders: [] }),
		backlinks: () => [],
		findThis: (n) => n,
	});
}

function errorOf(run: () => unknown): BaseError {
	try {
		run();
	} catch (error) {
		if (error instanceof BaseError) return error;
		throw error;
	}
	throw new Error('no error');
}

describe('base expressions', () => {
	it('a syntax error names the expression and the position', () => {
		const e = errorOf(() => compile('price * (quantity + '));
		expect(e.expression).toBe('price * (quantity + ');
		expect(e.message).toMatch(/ends too early at position 21 in `price \* \(quantity \+ `/);
	});

	it('an unknown function is an error listing the supported ones', () => {
		const global = errorOf(() => compile('frobnicate(1)'));
		expect(global.fn).toBe('frobnicate()');
		expect(global.message).toMatch(/unknown function; supported global functions: .*\bif\b.*\bdate\b/);
		const method = errorOf(() => compile('"a".shout()'));
		expect(method.message).toMatch(/shout\(\): unknown function; supported methods: .*\blower\b/);
	});

	it('finds an unknown function wherever it is nested', () => {
		const places = [
			'nope().x',
			'list[nope()]',
			'if(true, nope())',
			'nope().lower()',
			'"a".lower(nope())',
			'!nope()',
			'1 + nope()',
			'nope() + 1',
			'[1, nope()]',
			'{ a: nope() }',
		];
		for (const place of places) expect(errorOf(() => compile(place)).fn, place).toBe('nope()');
	});

	it('a method on the wrong type names the function and the types that have it', async () => {
		const d = await data();
		const e = errorOf(() => evaluateExpression(d, '(5).lower()'));
		expect(e.message).toBe(
			'number.lower(): lower() is not a function of a number (it is one of: string) at position 5 in `(5).lower()`',
		);
	});

	it('a formula that reaches itself is refused with the cycle', async () => {
		const d = await data();
		const formulas = new Map([
			['a', 'formula.b + 1'],
			['b', 'formula.a * 2'],
		]);
		const e = errorOf(() => evaluateExpression(d, 'formula.a', { row: 'a.md', formulas }));
		expect(e.message).toMatch(/formula\.a → formula\.b → formula\.a/);
	});

	it('reads note properties, file fields, links and tags of a row', async () => {
		const d = await data();
		const at = (text: string): unknown => plainOf(evaluateExpression(d, text, { row: 'a.md', this: 'b.md' }));
		expect(at('n * 2')).toBe(6);
		expect(at('note["n"] + note.n')).toBe(6);
		expect(at('file.name')).toBe('a.md');
		expect(at('file.basename')).toBe('a');
		expect(at('file.tags')).toEqual(['x/y']);
		expect(at('file.hasTag("x")')).toBe(true);
		expect(at('file.hasLink(this)')).toBe(true);
		expect(at('links == this')).toBe(true);
		expect(at('file.links.contains(this.file)')).toBe(true);
		expect(at('this.file.name')).toBe('b.md');
	});

	it('date arithmetic follows the calendar', async () => {
		const d = await data();
		const at = (text: string): unknown => plainOf(evaluateExpression(d, text));
		expect(at('date("2024-01-31") + "1M"')).toBe('2024-02-29');
		expect(at('(date("2024-03-01") - date("2024-02-01")).days')).toBe(29);
		expect(at('date("2024-01-01 10:00:00") > "2023-12-31"')).toBe(true);
		expect(at('duration("2 weeks") * 2 == duration("28d")')).toBe(true);
	});

	it('regexes run on the linear-time engine and refuse what it cannot do', async () => {
		const d = await data();
		expect(plainOf(evaluateExpression(d, '("a".repeat(5000) + "!").matches(/(a|aa)*b/)'))).toBe(false);
		const e = errorOf(() => evaluateExpression(d, '"aa".replace(/(a)\\1/, "x")'));
		expect(e.message).toMatch(/backreference/);
	});

	it('an expression that would run too long stops at the step budget', async () => {
		const d = await data();
		const e = errorOf(() =>
			evaluateExpression(
				d,
				'[1,2,3,4,5,6,7,8,9,10].map([1,2,3,4,5,6,7,8,9,10].map([1,2,3,4,5,6,7,8,9,10].map([1,2,3,4,5,6,7,8,9,10].map([1,2,3,4,5,6,7,8,9,10].map(value)))))',
			),
		);
		expect(e.message).toMatch(new RegExp(`after ${ROW_STEPS} steps`));
	});
});

const PIECES = [
	'(',
	')',
	'[',
	']',
	'{',
	'}',
	'.',
	',',
	':',
	'"',
	"'",
	'/',
	'\\',
	'!',
	'-',
	'+',
	'*',
	'%',
	'&&',
	'||',
	'==',
	'<=',
	' ',
	'1',
	'2.5',
	'x',
	'note',
	'file',
	'formula',
	'this',
	'value',
	'if',
	'list',
	'date',
	'now()',
	'contains',
	'map',
	'filter',
	'reduce',
	'"1d"',
	'/a+/g',
	'true',
	'null',
	'é',
	'🌲',
];

describe('the expression parser under fuzzing', () => {
	it('throws nothing but BaseError and stays within the step budget', async () => {
		const d = await data();
		fc.assert(
			fc.property(fc.array(fc.constantFrom(...PIECES), { maxLength: 60 }), (parts) => {
				const text = parts.join('');
				try {
					evaluateExpression(d, text, { row: 'a.md', this: 'b.md', now: 0 });
				} catch (error) {
					if (!(error instanceof BaseError)) throw error;
				}
			}),
			{ numRuns: Number(process.env.FUZZ_RUNS ?? 2000), seed: Number(process.env.FUZZ_SEED ?? 20261202) },
		);
	});

	it('refuses nesting deeper than its bound instead of exhausting the stack', () => {
		expect(() => compile('('.repeat(4000) + '1' + ')'.repeat(4000))).toThrow(/nests deeper than/);
		expect(() => compile(Array(2000).fill('1').join('+'))).toThrow(/nests deeper than/);
		expect(() => compile('x' + '.y'.repeat(4000))).toThrow(/nests deeper than/);
		expect(() => compile('!'.repeat(5000) + 'x')).toThrow(/nests deeper than/);
		expect(() => compile('-'.repeat(5000) + '1')).toThrow(/nests deeper than/);
	});
});
