/** The engine's operations on the command line: `note`, `status`, and `--links-key` on search (issue 9 case 5). */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli';
import { hashTree } from '../helpers/hash';

let vault = '';
let before = '';

const FILES: Record<string, string> = {
	'Topic.md': '# Topic\n\nThe subject.\n\n## Open questions\n\nWhy now? ^why\n\n## Done\n\nNothing.\n',
	'linker.md': '---\nrelated: [Topic]\n---\nAbout the subject, linked only through the related field.\n',
	'.obsidian/app.json': '{}',
};

beforeAll(() => {
	vault = mkdtempSync(join(tmpdir(), 'vq-engine-'));
	for (const [path, text] of Object.entries(FILES)) {
		mkdirSync(join(vault, path, '..'), { recursive: true });
		writeFileSync(join(vault, path), text);
	}
	before = hashTree(vault);
});

afterAll(() => {
	expect(hashTree(vault)).toBe(before);
	rmSync(vault, { recursive: true, force: true });
});

describe('issue 9 case 5: vault-query search --links-key', () => {
	it('counts the named field in backlinks: as the backlinks command does', async () => {
		const plain = await cli(['search', 'backlinks:Topic', '--vault', vault, '--json']);
		expect((JSON.parse(plain.stdout) as { results: unknown[] }).results).toEqual([]);
		const keyed = await cli(['search', 'backlinks:Topic', '--links-key', 'related', '--vault', vault, '--json']);
		expect((JSON.parse(keyed.stdout) as { results: { path: string }[] }).results.map((h) => h.path)).toEqual([
			'linker.md',
		]);
		const structural = await cli(['backlinks', 'Topic', '--links-key', 'related', '--vault', vault, '--json']);
		expect((JSON.parse(structural.stdout) as { results: { path: string }[] }).results.map((h) => h.path)).toEqual([
			'linker.md',
		]);
	});
});

describe('vault-query note', () => {
	it('prints a section verbatim with its line range', async () => {
		const run = await cli(['note', 'Topic#Open questions', '--vault', vault]);
		expect(run.code).toBe(0);
		expect(run.stdout).toBe('Topic.md › Open questions  (lines 5–7 of 11)\n\n## Open questions\n\nWhy now? ^why');
		const json = JSON.parse((await cli(['note', '[[Topic#^why]]', '--vault', vault, '--json'])).stdout) as {
			results: { lines: number[]; text: string }[];
		};
		expect(json.results[0]).toMatchObject({ lines: [7, 7], text: 'Why now? ^why' });
	});

	it('fails with exit 2 and a reason for an unknown section', async () => {
		const run = await cli(['note', 'Topic#Nowhere', '--vault', vault]);
		expect(run.code).toBe(2);
		expect(run.stderr).toContain('no heading "Nowhere" in Topic.md');
	});
});

describe('vault-query status', () => {
	it('reports notes, scope and the search index', async () => {
		const json = JSON.parse((await cli(['status', '--build-index', '--vault', vault, '--json'])).stdout) as Record<
			string,
			unknown
		>;
		expect(json).toMatchObject({ notes: 2, in_scope: 2, indexed: 2, search_index: 'ready' });
	});
});
