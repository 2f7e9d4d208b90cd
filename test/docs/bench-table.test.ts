import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { matchedCount } from '../../scripts/bench/cli.mjs';
import { readTable, renderTable, TABLE_END, TABLE_START, TARGETS } from '../../scripts/bench/table.mjs';
import { cli } from '../helpers/cli';
import { EXAMPLE_VAULT, REPO } from '../helpers/paths';

/** The first three cells that name a target in the table. */
const keyOf = (t: { what: string; how: string; vault: string }) => `${t.what} | ${t.how} | ${t.vault}`;

describe('the current-figures table at the top of docs/BENCHMARKS.md', () => {
	const page = readFileSync(join(REPO, 'docs', 'BENCHMARKS.md'), 'utf8');

	it('lists every target of npm run bench, each with its goal, a figure, a verdict and a date', () => {
		const rows = readTable(page);
		expect(TARGETS.map(keyOf).filter((key) => !rows.has(key))).toEqual([]);
		for (const target of TARGETS) {
			const cells = rows.get(keyOf(target)) ?? [];
			expect(cells[3], keyOf(target)).toBe(target.goal);
			const measured = cells[4] !== 'not measured yet';
			expect(cells[5], keyOf(target)).toMatch(measured ? /^(met|\*\*missed\*\*)$/ : /^—$/);
			expect(cells[6], keyOf(target)).toMatch(measured ? /^\d{4}-\d{2}-\d{2}$/ : /^—$/);
		}
	});

	it('comes first on the page, before the history of old runs', () => {
		expect(page.indexOf(TABLE_START)).toBeGreaterThan(0);
		expect(page.indexOf(TABLE_END)).toBeLessThan(page.search(/^## History$/m));
	});

	it("a run rewrites the rows it measured with that day's date and keeps the others as they were", () => {
		const previous = readTable(page);
		const results = { cli: { targets: { coldBacklinks: { value: 1234, verdict: 'MISS' } } } };
		const table = renderTable(previous, results, '2030-01-02');
		const rows = readTable(`${TABLE_START}\n${table}\n${TABLE_END}`);
		expect(rows.get(keyOf(TARGETS[0]!))?.slice(3)).toEqual(['≤ 1 s', '1.23 s', '**missed**', '2030-01-02']);
		for (const target of TARGETS.slice(1)) expect(rows.get(keyOf(target))).toEqual(previous.get(keyOf(target)));
	});

	it('a result of the wrong shape stops the rewrite instead of writing a guess', () => {
		const broken = { snapshot: { data: { results: [{ size: 'i18n', commands: {} }] } } };
		expect(() => renderTable(readTable(page), broken, '2030-01-02')).toThrow();
	});
});

describe("the cold-CLI job reads the CLI's current text output", () => {
	it('counts the results of tag, grep, backlinks and links from their first line', async () => {
		const counts = [];
		for (const args of [['tag', 'project'], ['grep', 'FFIEC IT Handbook'], ['backlinks', 'conventions'], ['links', 'Home']]) {
			const run = await cli([...args, '--vault', EXAMPLE_VAULT, '--no-cache']);
			expect(run.code, args.join(' ')).toBe(0);
			counts.push(matchedCount(run.stdout));
		}
		expect(counts).toEqual([2, 1, 10, 6]);
	});

	it('fails loudly on a line it cannot read', () => {
		expect(() => matchedCount('Found some notes\n')).toThrow(/cannot read the number of results/);
	});
});
