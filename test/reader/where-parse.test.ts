import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseWhere, splitWhereText } from '../../src/core/reader/where';

// The regexes the hand-written readers replaced, kept as the reference for what a clause means.
const CLAUSE = /^\s*([^=!<>]+?)\s*(>=|<=|!=|=|>|<)\s*(.*?)\s*$/s;
const SPLIT = /\s+(?=[^\s=!<>]+\s*(?:>=|<=|!=|=|>|<))/;

/** Short texts over the characters that matter: operators, spaces of several kinds, letters. */
const soup = fc.string({
	unit: fc.constantFrom('a', 'b', ' ', '\t', '\u00a0', '=', '!', '<', '>', '|', '-', '7'),
	maxLength: 14,
});

describe('--where parsing', () => {
	it('splits a typed filter into clauses as the reference split does', () => {
		fc.assert(
			fc.property(soup, (text) => {
				expect(splitWhereText(text)).toEqual(
					text
						.trim()
						.split(SPLIT)
						.filter((c) => c !== ''),
				);
			}),
			{ seed: 13, numRuns: 3000 },
		);
	});

	it('reads field, operator and value of a clause as the reference pattern does', () => {
		fc.assert(
			fc.property(soup, (clause) => {
				const m = CLAUSE.exec(clause);
				const parsed = parseWhere([clause]);
				if (m === null || m[1]!.trim() === '') expect(Array.isArray(parsed)).toBe(false);
				else expect(parsed).toEqual([{ field: m[1]!.trim(), op: m[2], values: [m[3]] }]);
			}),
			{ seed: 13, numRuns: 3000 },
		);
	});

	// A regex that backtracks over the spaces took minutes here: that would run into the test's timeout.
	it('reads a clause or a filter line holding 200k spaces', () => {
		const spaces = ' '.repeat(200_000);
		expect(splitWhereText(`status${spaces}x`)).toEqual([`status${spaces}x`]);
		expect(parseWhere([`status${spaces}x`])).not.toBeInstanceOf(Array);
		expect(parseWhere([`status=${spaces}x${spaces}`])).toEqual([{ field: 'status', op: '=', values: ['x'] }]);
		expect(parseWhere({ status: `>=${spaces}7${spaces}` })).toEqual([{ field: 'status', op: '>=', values: ['7'] }]);
	});
});
