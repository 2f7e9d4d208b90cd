import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { contextGroups } from '../../src/core/text/context-groups';
import { excerptOf } from '../../src/core/note-info';
import { cli } from '../helpers/cli';
import { EXAMPLE_VAULT } from '../helpers/paths';

/** Issue 10, "Honest, quiet output": each text-output rule as a user would check it. */

/** A throwaway vault with these notes (path → text), read with --no-cache so nothing is saved. */
function vault(notes: Record<string, string>): string[] {
	const dir = mkdtempSync(join(tmpdir(), 'vq-honest-'));
	for (const [path, text] of Object.entries(notes)) {
		mkdirSync(join(dir, path, '..'), { recursive: true });
		writeFileSync(join(dir, path), text);
	}
	return ['--vault', dir, '--no-cache'];
}

const LINES = Array.from({ length: 20 }, (_, i) =>
	i === 3 || i === 5 || i === 15 ? `hit ${i + 1}` : `line ${i + 1}`,
).join('\n');

describe('grep and text-search context, as GNU grep prints it', () => {
	it('merges overlapping context: no line twice, -- only between separate groups', async () => {
		const run = await cli(['grep', 'hit', ...vault({ 'a.md': LINES })]);
		expect(run.code).toBe(0);
		const listing = run.stdout.split('\n').slice(4);
		expect(listing).toEqual([
			'  2- line 2',
			'  3- line 3',
			'  4: hit 4',
			'  5- line 5',
			'  6: hit 6',
			'  7- line 7',
			'  8- line 8',
			'  --',
			'  14- line 14',
			'  15- line 15',
			'  16: hit 16',
			'  17- line 17',
			'  18- line 18',
		]);
	});

	it('-C/--context N sets the context lines; 0 prints matches only', async () => {
		const v = vault({ 'a.md': LINES });
		const none = await cli(['grep', 'hit', '-C', '0', ...v]);
		expect(none.stdout.split('\n').slice(4)).toEqual(['  4: hit 4', '  --', '  6: hit 6', '  --', '  16: hit 16']);
		const one = await cli(['grep', 'hit', '--context=1', ...v]);
		expect(one.stdout.split('\n').slice(4)).toEqual([
			'  3- line 3',
			'  4: hit 4',
			'  5- line 5',
			'  6: hit 6',
			'  7- line 7',
			'  --',
			'  15- line 15',
			'  16: hit 16',
			'  17- line 17',
		]);
		expect((await cli(['grep', 'hit', '-C', 'x', ...v])).stderr).toMatch(
			/--context must be a whole number from 0 to 1000/,
		);
	});

	it('text-search --report merges the same way', async () => {
		const run = await cli([
			'text-search',
			'cost of capital',
			'--report',
			'--context',
			'1',
			'--vault',
			EXAMPLE_VAULT,
		]);
		expect(run.stdout).toContain(
			'     - matches:\n         1: Loose thoughts with no frontmatter yet: compare the discount rate with the cost of capital.\n         2- \n',
		);
	});

	it("a line that matched stays a match where it is also another match's context", () => {
		const groups = contextGroups([
			{ line: 2, text: 'b', before: ['a'], after: ['c'] },
			{ line: 3, text: 'c', before: ['b'], after: ['d'] },
		]);
		expect(groups).toEqual([
			[
				{ line: 1, text: 'a', match: false },
				{ line: 2, text: 'b', match: true },
				{ line: 3, text: 'c', match: true },
				{ line: 4, text: 'd', match: false },
			],
		]);
	});
});

describe('quiet footers', () => {
	const notes = { 'ok.md': 'good text\n', 'bad1.md': 'good \u0000 text', 'bad2.md': 'good \u0000 again' };

	it('skipped files are one line unless --verbose; JSON keeps the list', async () => {
		const v = vault(notes);
		const quiet = await cli(['grep', 'good', ...v]);
		const skippedLines = quiet.stdout.split('\n').filter((l) => /skipped/.test(l));
		expect(skippedLines).toHaveLength(1);
		expect(skippedLines[0]).toMatch(/^2 files skipped or partly read( \(.+\))?: --verbose to list$/);
		expect(quiet.stdout).not.toContain('bad1.md');
		const verbose = await cli(['grep', 'good', '--verbose', ...v]);
		expect(verbose.stdout).toContain('bad1.md');
		expect(verbose.stdout).toContain('bad2.md');
		const json = JSON.parse((await cli(['grep', 'good', '--json', ...v])).stdout) as {
			skipped: { path: string }[];
		};
		expect(json.skipped.map((s) => s.path).sort()).toEqual(['bad1.md', 'bad2.md']);
	});

	it('notes kept out by the scope rules are summed in one line unless --verbose', async () => {
		const quiet = await cli(['tag', 'project', '--vault', EXAMPLE_VAULT]);
		expect(quiet.stdout).toContain('  - Not searched: 2 notes in excluded folders or files (--verbose to list)');
		expect(quiet.stdout).not.toContain('_views/');
		const verbose = await cli(['tag', 'project', '--verbose', '--vault', EXAMPLE_VAULT]);
		expect(verbose.stdout).toContain('  - Not searched: 1 note(s) in _views/');
	});

	it('the truncation is said once, in the first line, with how to see more', async () => {
		const run = await cli(['tag', 'copilot', '--limit', '1', '--vault', EXAMPLE_VAULT]);
		expect(run.stdout.split('\n')[0]).toMatch(
			/^\d+ notes match \(searched \d+ notes\); showing 1 \(raise --limit to see more\)$/,
		);
		expect(run.stdout).not.toContain('Truncated');
	});
});

describe('what each listing names', () => {
	it('filter --report shows the title and the fields the query used', async () => {
		const run = await cli(['filter', '--where', 'rating>=9', '--report', '--vault', EXAMPLE_VAULT]);
		expect(run.stdout).toContain('     - title: dcf-valuation\n     - frontmatter: {rating: 9}\n');
	});

	it('links names the note it resolved; links are written [[as in a note]]', async () => {
		const run = await cli(['links', '2026-06-20-adopt-obsidian-and-ob1-patterns', '--vault', EXAMPLE_VAULT]);
		expect(run.stdout.split('\n')[0]).toMatch(
			/^Links from decisions\/2026-06-20-adopt-obsidian-and-ob1-patterns\.md: \d+ links$/,
		);
		expect(run.stdout).toMatch(/^\[\[conventions\]\] → conventions\.md {2}\[/m);
	});

	it('tags read with # in search and in reports', async () => {
		const search = await cli(['search', 'discount rate', '--limit', '1', '--vault', EXAMPLE_VAULT]);
		expect(search.stdout).toMatch(/- \*\*Tags\*\*: #\S+/);
		const report = await cli(['lookup', 'dcf-valuation', '--report', '--vault', EXAMPLE_VAULT]);
		expect(report.stdout).toMatch(/tags: \[#valuation, #finance\]/);
	});
});

describe('the search listing', () => {
	it('the header says how many match, how many are shown and how to see more', async () => {
		const run = await cli(['search', 'copilot', '--limit', '2', '--vault', EXAMPLE_VAULT]);
		expect(run.stdout).toMatch(/\n\d+ notes match; showing 2 \(raise --limit to see more\):\n/);
		expect(run.stdout).not.toMatch(/Showing 2 of/);
	});

	it('--folders restricts the search; a folder with no notes is an error', async () => {
		const v = vault({ 'Notes/a.md': 'alpha text\n', 'Daily/b.md': 'alpha text\n', 'Other/c.md': 'alpha text\n' });
		const json = JSON.parse(
			(await cli(['search', 'alpha', '--folders', 'Notes,Daily', '--json', ...v])).stdout,
		) as { results: { path: string }[] };
		expect(json.results.map((r) => r.path).sort()).toEqual(['Daily/b.md', 'Notes/a.md']);
		const missing = await cli(['search', 'alpha', '--folders', 'Nope', ...v]);
		expect(missing.code).toBe(2);
		expect(missing.stderr).toMatch(/folders: no notes under "Nope\/"/);
	});

	it('"did you mean" is said once', async () => {
		const links = await cli(['links', 'conventons', '--vault', EXAMPLE_VAULT]);
		expect(links.code).toBe(2);
		expect(links.stderr.match(/conventions/g)).toHaveLength(1);
		const search = await cli(['search', 'backlinks:conventons x', '--vault', EXAMPLE_VAULT]);
		expect(search.stderr.match(/did you mean/g)).toHaveLength(1);
	});

	it('excerpts drop %%comments%% and embed syntax', async () => {
		expect(excerptOf('Before %%hidden\nnote%% after ![[diagram.png]] and ![alt](x.png) end %%open', 200)).toBe(
			'Before after and end',
		);
		expect(excerptOf('## Goals\n> quoted words\n```js\nconst x = 1;\n```\nafter', 200)).toBe(
			'Goals quoted words const x = 1; after',
		);
		const v = vault({ 'a.md': '# A\n\n%%todo: private%% Visible words ![[Other]] here.\n', 'Other.md': 'x\n' });
		const grep = JSON.parse((await cli(['search', 'visible', '--json', ...v])).stdout) as {
			results: { excerpt: string }[];
		};
		expect(grep.results[0]!.excerpt).toBe('Visible words here.');
	});
});

describe('arguments before the vault', () => {
	it('a query that starts with "-" gets the hint to put it after --', async () => {
		const run = await cli(['search', '-draft', '--vault', EXAMPLE_VAULT]);
		expect(run.code).toBe(2);
		expect(run.stderr).toMatch(/put them after --/);
	});

	it('an invalid regex or a bad --context fails before a file is read, even for a vault that is not there', async () => {
		const gone = ['--vault', join(tmpdir(), 'no-such-vault-vq')];
		for (const args of [
			['grep', '(', '--regex'],
			['text-search', '(', '--regex'],
			['search', '/(/'],
			['grep', 'x', '--context', '5000'],
			['filter', '--where', '=x'],
		]) {
			const run = await cli([...args, ...gone]);
			expect(run.code, args.join(' ')).toBe(2);
			expect(run.stderr, args.join(' ')).not.toMatch(/not found|Vault folder/);
		}
	});
});

describe('no internal vocabulary in what users see', () => {
	it('search, help and reports say nothing of seeds, synthesis, categories or /vault-index', async () => {
		const outputs = [
			(await cli(['search', 'copilot', '--vault', EXAMPLE_VAULT])).stdout,
			(await cli(['search', 'zzzqqq', '--vault', EXAMPLE_VAULT])).stdout,
			(await cli(['text-search', '--help'])).stdout,
			(await cli(['filter', '--help'])).stdout,
			(await cli(['search', '--help'])).stdout,
		];
		for (const text of outputs) {
			expect(text).not.toMatch(/\bseed|synthesis|Categories: —|vault-index|Alias\/filename/i);
		}
	});
});
