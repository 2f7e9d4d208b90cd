/**
 * `vault-query base`: a base's view over examples/vault as a table, JSON, CSV and Markdown; the
 * views listed; bad input named (an unknown base, view or format) with exit 2; nothing matched is
 * exit 1.
 */
import { describe, expect, it } from 'vitest';
import type { BaseResult } from '../../src/core/bases/index';
import { cli } from '../helpers/cli';
import { EXAMPLE_VAULT } from '../helpers/paths';

const run = (...args: string[]) => cli([...args, '--vault', EXAMPLE_VAULT]);

describe('vault-query base', () => {
	it('prints the first view as a table with display names, sorted, with its summary', async () => {
		const r = await run('base', 'skills.base');
		expect(r.code).toBe(0);
		const lines = r.stdout.split('\n');
		expect(lines[0]).toBe('skills.base › Top rated: 2 rows');
		expect(lines[2]).toMatch(/^Skill\s+domain\s+Rating\s+stars$/);
		expect(lines[3]).toMatch(/^dcf-valuation\s+investing\s+9\s+★★★★$/);
		expect(lines[4]).toMatch(/^code-review-checklist\s+engineering\s+7\s+★★★$/);
		expect(r.stdout).toContain('Summary — Rating: 8');
	});

	it('--json gives the contract: status, base, view, columns, rows with values, groups', async () => {
		const r = await run('base', 'skills.base', '--view', 'By domain', '--json');
		const json = JSON.parse(r.stdout) as BaseResult;
		expect(json.status).toBe('success');
		expect(json.view).toBe('By domain');
		expect(json.columns).toEqual([
			{ id: 'file.basename', name: 'Skill' },
			{ id: 'note.status', name: 'status' },
			{ id: 'formula.verified_days', name: 'Days since verified' },
		]);
		expect(json.groups?.map((g) => [g.value, g.rows.map((i) => json.rows[i]!.path)])).toEqual([
			['engineering', ['skill-lab/code-review-checklist.md']],
			['investing', ['skill-lab/dcf-valuation.md', 'skill-lab/position-sizing.md']],
		]);
		expect(json.rows[1]!.values).toEqual({
			'file.basename': 'dcf-valuation',
			'note.status': 'active',
			'formula.verified_days': 11,
		});
	});

	it('names the view after # as embeds do, and writes CSV and Markdown', async () => {
		const csv = await run('base', 'skills.base#Top rated', '--format', 'csv');
		expect(csv.stdout.split('\n')).toEqual([
			'path,Skill,domain,Rating,stars',
			'skill-lab/dcf-valuation.md,dcf-valuation,investing,9,★★★★',
			'skill-lab/code-review-checklist.md,code-review-checklist,engineering,7,★★★',
		]);
		const md = await run('base', 'skills.base#Top rated', '--format', 'markdown', '--limit', '1');
		expect(md.stdout).toBe(
			'| Skill | domain | Rating | stars |\n| --- | --- | --- | --- |\n| dcf-valuation | investing | 9 | ★★★★ |',
		);
	});

	it('--list names the views', async () => {
		const r = await run('base', 'skills.base', '--list');
		expect(r.stdout).toBe('skills.base: 3 views\n  Top rated  (table)\n  By domain  (table)\n  Stale  (table)');
	});

	it('an unknown base, view or format is exit 2 naming it', async () => {
		const base = await run('base', 'nope.base');
		expect(base.code).toBe(2);
		expect(base.stderr).toBe('vault-query base: base: no base file "nope.base"; bases in this vault: skills.base');
		const view = await run('base', 'skills.base', '--view', 'Nope');
		expect(view.stderr).toBe(
			'vault-query base: view: no view "Nope" in skills.base (views: "Top rated", "By domain", "Stale")',
		);
		const format = await run('base', 'skills.base', '--format', 'xml');
		expect(format.code).toBe(2);
		expect(format.stderr).toMatch(/--format: "xml" is not one of text, csv, markdown/);
	});

	it('a view nothing matches is exit 1; a limit below 1 is a usage error', async () => {
		const stale = await run('base', 'skills.base', '--view', 'Stale');
		expect(stale.code).toBe(1);
		expect(stale.stdout.split('\n')[0]).toBe('skills.base › Stale: 0 rows');
		const zero = await run('base', 'skills.base', '--limit', '0');
		expect(zero.code).toBe(2);
		expect(zero.stderr).toMatch(/--limit/);
	});

	it('pack --base quotes only the notes of a base view; a bad base fails the pack naming it', async () => {
		const scoped = await run(
			'pack',
			'position sizing and valuation',
			'--base',
			'skills.base#Top rated',
			'--today',
			'2026-07-01',
			'--json',
		);
		const pack = JSON.parse(scoped.stdout) as { query: { base: string }; pack: { path: string }[] };
		expect(pack.query.base).toBe('skills.base#Top rated');
		expect(pack.pack.length).toBeGreaterThan(0);
		for (const source of pack.pack)
			expect(['skill-lab/dcf-valuation.md', 'skill-lab/code-review-checklist.md']).toContain(source.path);
		const bad = await run('pack', 'anything', '--base', 'nope.base');
		expect(bad.code).toBe(2);
		expect(bad.stderr).toMatch(/^vault-query pack: base: no base file "nope.base"/);
	});
});
