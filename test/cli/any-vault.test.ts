/**
 * Issue 10's must-show: every CLI command on two vaults written by other people, with default
 * settings — no team folder excluded, no team ordering, answers sorted by path — and a schema
 * drafted from the vault that the schema-strict reads then accept as it stands.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { cli } from '../helpers/cli';
import { hashTree } from '../helpers/hash';
import { describeShared, HELP_VAULT, KEPANO_VAULT } from '../helpers/shared';

/** Runs a command with --json and parses the one object it prints. */
async function answer(args: string[]): Promise<{ code: number; json: Record<string, unknown> }> {
	const run = await cli([...args, '--json']);
	return { code: run.code, json: JSON.parse(run.stdout) as Record<string, unknown> };
}

/** The commands a new user would try, with arguments that make sense on any vault. */
function commands(vault: string, schema: string, note: string, word: string): string[][] {
	const v = ['--vault', vault];
	const s = ['--schema', schema, '--folders', 'all'];
	return [
		['tag', 'a', ...v],
		['prop', 'tags', ...v],
		['backlinks', note, ...v],
		['links', note, ...v],
		['grep', word, '--limit', '5', ...v],
		['search', word, ...v],
		['pack', `what is ${word}?`, '--budget', '500', ...v],
		['note', note, ...v],
		['status', ...v],
		['lookup', note, ...v, ...s],
		['graph', note, ...v, ...s],
		['text-search', word, ...v, ...s],
		['filter', '--where', 'tags=x', ...v, ...s],
	];
}

/** Each vault: where it is, a note every command can name, a common word. */
const VAULTS = [
	{ name: 'kepano-obsidian', path: KEPANO_VAULT, note: 'Readme', word: 'template' },
	{ name: 'obsidian-help-i18n', path: HELP_VAULT, note: 'Backlink', word: 'plugin' },
];

describeShared('every command on vaults written by other people, default settings (issue 10)', () => {
	for (const vault of VAULTS) {
		it(`${vault.name}: no team folders or ordering, every command answers, the drafted schema is accepted`, async () => {
			const before = hashTree(vault.path);
			const config = await answer(['config', '--vault', vault.path]);
			const settings = config.json.settings as Record<string, unknown>;
			expect(settings.excludedFolders).toEqual([]);
			expect(settings.authorityOrder).toEqual([]);
			expect(settings.profile).toBe('');
			expect(settings.sort).toBe('path');

			const draft = await cli(['schema', 'draft', '--vault', vault.path]);
			expect(draft.code).toBe(0);
			const schema = join(mkdtempSync(join(tmpdir(), 'vq-any-vault-')), 'schema.md');
			writeFileSync(schema, draft.stdout);

			for (const args of commands(vault.path, schema, vault.note, vault.word)) {
				const { code, json } = await answer(args);
				expect([0, 1], `${args.join(' ')} exits 0 or 1, got ${code}: ${String(json.error)}`).toContain(code);
				expect(json.status, args.join(' ')).not.toBe('failed');
			}
			expect(hashTree(vault.path)).toEqual(before);
		}, 300_000);
	}
});
