// @vitest-environment happy-dom
/**
 * Issue 15: one Unicode rule everywhere (a decomposed note, a composed query: every operation
 * finds it), and a query with nothing to match fails with a reason instead of answering every note.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run';
import { FakeApp } from '../plugin/fake-app';
import { loadPlugin, settle } from '../plugin/harness';
import { ready } from '../ui/harness';

/** The note as macOS or a decomposing editor writes it: every accent a combining character (NFD). */
const NFD_NOTE = '---\ncity: Zürich\ntags: [résumé]\n---\n# Notes\n\nThe café serves crème brûlée.\n'.normalize('NFD');
const FILES: Record<string, string> = { 'cv.md': NFD_NOTE, 'other.md': '# Other\n\nNothing here about the city.\n' };

let vault: string;
beforeAll(() => {
	vault = mkdtempSync(join(tmpdir(), 'vq-unicode-'));
	for (const [path, text] of Object.entries(FILES)) writeFileSync(join(vault, path), text);
});
afterAll(() => rmSync(vault, { recursive: true, force: true }));

/** Run the CLI in-process with --json. */
async function cliJson(args: string[]): Promise<{ code: number; json: Record<string, unknown>; stderr: string }> {
	const out: string[] = [];
	const err: string[] = [];
	const code = await runCli([...args, '--vault', vault, '--json'], {
		stdout: (t) => out.push(t),
		stderr: (t) => err.push(t),
		cwd: vault,
	});
	return { code, json: JSON.parse(out.join('')) as Record<string, unknown>, stderr: err.join('') };
}

/** Paths of a result's hits. */
function paths(json: Record<string, unknown>): string[] {
	return (json.results as { path: string }[]).map((r) => r.path);
}

describe('NFC on both sides, in every operation', () => {
	const composed = (text: string): string => text.normalize('NFC');
	it('finds the decomposed note from composed queries in the CLI: tag, prop, search filters, phrases, regexes and grep', async () => {
		expect(NFD_NOTE).not.toBe(composed(NFD_NOTE));
		const cases: string[][] = [
			['tag', composed('résumé')],
			['prop', 'city', composed('Zürich')],
			['search', composed('tag:#résumé')],
			['search', composed('[city:Zürich]')],
			['search', composed('"café serves crème"')],
			['search', composed('/crème br.lée/')],
			['grep', composed('café')],
			['grep', composed('CRÈME'), '--regex'],
		];
		for (const args of cases) {
			const { code, json } = await cliJson(args);
			expect(code, args.join(' ')).toBe(0);
			expect(paths(json), args.join(' ')).toEqual(['cv.md']);
		}
	});

	it("shows the note's own line (positions map to the original text)", async () => {
		const { json } = await cliJson(['grep', composed('brûlée')]);
		const [hit] = json.results as { matches: { line: number; text: string }[] }[];
		expect(hit!.matches[0]).toMatchObject({ line: 7, text: 'The café serves crème brûlée.'.normalize('NFD') });
	});

	it('finds it through the plugin class too: api.query grep and api.search', async () => {
		const app = new FakeApp(FILES);
		const plugin = await loadPlugin(app);
		app.layoutReady();
		app.indexAll();
		await settle();
		expect(
			(await plugin.api.query({ type: 'grep', pattern: composed('café') })).results.map((r) =>
				'path' in r ? r.path : '',
			),
		).toEqual(['cv.md']);
		expect(
			(await plugin.api.query({ type: 'tag', tag: composed('résumé') })).results.map((r) =>
				'path' in r ? r.path : '',
			),
		).toEqual(['cv.md']);
		const searching = await ready(FILES);
		expect((await searching.plugin.api.search(composed('tag:#résumé'))).results.map((r) => r.path)).toEqual([
			'cv.md',
		]);
		expect((await searching.plugin.api.search(composed('[city:Zürich]'))).results.map((r) => r.path)).toEqual([
			'cv.md',
		]);
	});
});

describe('queries with nothing to match', () => {
	it('fail with a reason (exit 2) instead of answering every note', async () => {
		for (const query of ['[', '[:]', 'tag:', '//', '\u200b', '\u200b\u200d']) {
			const { code, json } = await cliJson(['search', query]);
			expect(code, JSON.stringify(query)).toBe(2);
			expect(json.status).toBe('failed');
			expect(json.error).toMatch(/^query: nothing to match in /);
		}
	});

	it('a query of stop words is an ordinary query that matched nothing (exit 1)', async () => {
		const { code, json } = await cliJson(['search', 'the of']);
		expect(code).toBe(1);
		expect(json.status).toBe('success');
	});

	it('a 48 KB quoted phrase is refused with its length, never an internal error', async () => {
		const { code, json, stderr } = await cliJson(['search', `"${'word '.repeat(9600)}"`]);
		expect(code).toBe(2);
		expect(json.error).toBe('query: 48002 characters is longer than the 10000-character limit');
		expect(stderr).not.toMatch(/internal error/);
	});

	it('a long phrase under the limit is matched as a literal', async () => {
		const { code } = await cliJson(['search', `"${'crème '.repeat(1500)}"`]);
		expect(code).toBe(1);
	});
});
