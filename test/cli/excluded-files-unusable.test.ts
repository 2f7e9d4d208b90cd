/**
 * An `.obsidian/app.json` that exists but cannot be used (a FIFO, a folder, malformed JSON) means
 * the notes the user excluded are searched: every answer says so, in its JSON and in the text
 * summary, and a FIFO never blocks the read.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli';

const made: string[] = [];
afterAll(() => {
	for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A vault with one note in `Archive/` (excluded when app.json is read) and `app` as its app.json. */
function vaultWith(app: (path: string) => void): string {
	const vault = mkdtempSync(join(tmpdir(), 'vq-appjson-bad-'));
	made.push(vault);
	mkdirSync(join(vault, '.obsidian'));
	mkdirSync(join(vault, 'Archive'));
	writeFileSync(join(vault, 'Kept.md'), 'alpha here\n');
	writeFileSync(join(vault, 'Archive', 'Old.md'), 'alpha there\n');
	app(join(vault, '.obsidian', 'app.json'));
	return vault;
}

const CASES: [string, (path: string) => void, RegExp][] = [
	[
		'a FIFO',
		(path) => {
			if (spawnSync('mkfifo', [path]).status !== 0) throw new Error('mkfifo failed');
		},
		/Excluded files not applied: \.obsidian\/app\.json is a FIFO/,
	],
	['a folder', (path) => mkdirSync(path), /Excluded files not applied: \.obsidian\/app\.json is a folder/],
	[
		'malformed JSON',
		(path) => writeFileSync(path, '{"userIgnoreFilters": ["Archive/"'),
		/Excluded files not applied: \.obsidian\/app\.json is not valid JSON/,
	],
];

describe.runIf(process.platform !== 'win32')('an unusable .obsidian/app.json is reported, never silent', () => {
	it('a readable app.json excludes Archive/ and reports no problem (the baseline)', async () => {
		const vault = vaultWith((path) => writeFileSync(path, '{"userIgnoreFilters": ["Archive/"]}'));
		const run = await cli(['grep', 'alpha', '--vault', vault, '--json']);
		const json = JSON.parse(run.stdout) as { results: { path: string }[]; limitations: string[] };
		expect(json.results.map((r) => r.path)).toEqual(['Kept.md']);
		expect(json.limitations.join('\n')).not.toContain('Excluded files not applied');
	});

	for (const [what, make, said] of CASES) {
		it(`app.json as ${what}: grep and search --json name it in limitations, and the text output says it`, async () => {
			const vault = vaultWith(make);
			for (const command of ['grep', 'search']) {
				const run = await cli([command, 'alpha', '--vault', vault, '--json']);
				const json = JSON.parse(run.stdout) as { limitations: string[] };
				expect(json.limitations.join('\n'), command).toMatch(said);
				const text = await cli([command, 'alpha', '--vault', vault]);
				expect(text.stdout + text.stderr, command).toMatch(said);
			}
		});
	}
});
