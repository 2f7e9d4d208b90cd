import { utimesSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { NoteResult } from '../../src/core/contract';
import type { ContextPack } from '../../src/core/pack/pack';
import { cli } from '../helpers/cli';
import { readerJson, SMALL_SCHEMA, tempVault } from '../reader/helpers';

/** 2022-05-06 12:00 UTC, the modification time given to every note. */
const MTIME = new Date(Date.UTC(2022, 4, 6, 12));

/** A vault whose notes date themselves in each of the ways the rule reads, and one that does not. */
function datedVault(extra: Record<string, string> = {}): string {
	const files: Record<string, string> = {
		'created.md':
			'---\ncreated: 2024-01-02\npublished: 2019-09-09\n---\n# Created\nThe sync engine keeps every device current.\n',
		'spaced.md': '---\ndate created: 2023-03-04T08:00\n---\n# Spaced\nThe sync engine resolves conflicts.\n',
		'placeholder.md': '---\nupdated: "{{date}}"\n---\n# Placeholder\nThe sync engine is a template here.\n',
		'plain.md': '# Plain\nThe sync engine without any properties.\n',
		...extra,
	};
	const vault = tempVault(files);
	for (const path of Object.keys(files)) utimesSync(join(vault, path), MTIME, MTIME);
	return vault;
}

/** `grep sync --json` over the vault: each result's date fields by path. */
async function datesOf(
	vault: string,
	flags: string[] = [],
): Promise<Record<string, Pick<NoteResult, 'date' | 'date_source' | 'date_key'>>> {
	const run = await cli(['grep', 'sync engine', '--vault', vault, '--json', '--no-cache', ...flags]);
	const results = (JSON.parse(run.stdout) as { results: NoteResult[] }).results;
	return Object.fromEntries(
		results.map((r) => [
			r.path,
			{ date: r.date, date_source: r.date_source, ...(r.date_key ? { date_key: r.date_key } : {}) },
		]),
	);
}

describe("a note's date: the first date property set, else the modification time, marked as such", () => {
	it('every result carries date and date_source; a placeholder is not a date', async () => {
		expect(await datesOf(datedVault())).toEqual({
			'created.md': { date: '2024-01-02', date_source: 'frontmatter', date_key: 'created' },
			'placeholder.md': { date: '2022-05-06', date_source: 'mtime' },
			'plain.md': { date: '2022-05-06', date_source: 'mtime' },
			'spaced.md': { date: '2023-03-04', date_source: 'frontmatter', date_key: 'date created' },
		});
	});

	it("the list is a setting: --date-fields, or dateFields in the plugin's data.json, as the plugin reads it", async () => {
		const vault = datedVault();
		expect((await datesOf(vault, ['--date-fields', 'published']))['created.md']).toEqual({
			date: '2019-09-09',
			date_source: 'frontmatter',
			date_key: 'published',
		});
		const withSettings = datedVault({
			'.obsidian/plugins/vault-query/data.json': JSON.stringify({ dateFields: ['published'] }),
		});
		const dates = await datesOf(withSettings);
		expect(dates['created.md']!.date_key).toBe('published');
		expect(dates['spaced.md']).toEqual({ date: '2022-05-06', date_source: 'mtime' });
		const config = await cli(['config', '--vault', withSettings, '--json']);
		expect(JSON.parse(config.stdout)).toMatchObject({
			settings: { dateFields: ['published'] },
			origins: { dateFields: expect.stringContaining('data.json') as unknown },
		});
	});

	it('context packs label a source with its date, "(file modified)" for the modification time — never "undated"', async () => {
		const vault = datedVault();
		const run = await cli([
			'pack',
			'sync engine',
			'--vault',
			vault,
			'--json',
			'--no-cache',
			'--today',
			'2026-07-01',
		]);
		const pack = JSON.parse(run.stdout) as ContextPack;
		const byPath = Object.fromEntries(pack.pack.map((s) => [s.path, [s.date, s.date_source]]));
		expect(byPath['created.md']).toEqual(['2024-01-02', 'frontmatter']);
		expect(byPath['plain.md']).toEqual(['2022-05-06', 'mtime']);
		expect(pack.markdown).toMatch(/plain\.md § Plain \(line \d+\) · 2022-05-06 \(file modified\)/);
		expect(pack.markdown).toMatch(/created\.md § Created \(line \d+\) · 2024-01-02 \(created\)/);
		expect(pack.markdown).not.toContain('undated');
	});

	it('schema-strict results carry the date; the staleness window reads last_verified as every date is read', async () => {
		const schema = SMALL_SCHEMA.replace('  rating: number', '  rating: number\n  last_verified: date');
		const vault = datedVault({
			'_meta/frontmatter-schema.md': schema,
			'Notes/listed.md': '---\ntype: claim\nlast_verified: ["2026-06-20"]\n---\nx\n',
			'Notes/linked.md': '---\ntype: claim\nlast_verified: "[[2026-01-01]]"\n---\nx\n',
			'Notes/never.md': '---\ntype: claim\n---\nx\n',
		});
		const { report } = await readerJson(
			[
				'filter',
				'--where',
				'type=claim',
				'--max-staleness-days',
				'30',
				'--today',
				'2026-07-01',
				'--folders',
				'Notes',
				'--no-cache',
			],
			vault,
		);
		// A one-item list is a day; a daily-note link too (and it is older than 30 days); never-verified passes.
		expect(report.results.map((r) => r.path).sort()).toEqual(['Notes/listed.md', 'Notes/never.md']);
		expect(report.results.find((r) => r.path === 'Notes/never.md')).toMatchObject({
			date: '2022-05-06',
			date_source: 'mtime',
		});
		expect(report.results.find((r) => r.path === 'Notes/listed.md')).toMatchObject({
			date: '2026-06-20',
			date_source: 'frontmatter',
			date_key: 'last_verified',
		});
	});
});
