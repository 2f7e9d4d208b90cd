/**
 * The progress line of long work (src/cli/progress.ts): on a terminal, once the work has run
 * ~2 s, one line rewritten in place with notes read of how many, the phase and an estimate of
 * the time left, erased when the work ends; nothing on piped stderr, with `--json` or `--quiet`.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProgressLine, progressAfterMs, progressWanted, PROGRESS_AFTER_MS } from '../../src/cli/progress';
import { runCli } from '../../src/cli/run';
import { EXAMPLE_VAULT, REPO } from '../helpers/paths';

/** A stream that records what is written, a terminal or not. */
function fakeStream(
	isTTY: boolean,
	columns = 80,
): { isTTY: boolean; columns: number; written: string[]; write(t: string): boolean } {
	const written: string[] = [];
	return { isTTY, columns, written, write: (t: string) => (written.push(t), true) };
}

describe('the progress line', () => {
	it('on a terminal, once the work has run long enough, rewrites one line with notes read, total, phase and time left', () => {
		let now = 0;
		const stream = fakeStream(true);
		const line = new ProgressLine(stream, true, () => now, 2000);
		line.update('reading the vault', 100, 4000);
		expect(stream.written).toEqual([]); // not yet 2 s: short work shows nothing
		now = 3000;
		line.update('reading the vault', 1000, 4000);
		now = 4000;
		line.update('reading the vault', 2000, 4000);
		expect(stream.written).toEqual([
			'\rvault-query: reading the vault, 1,000 / 4,000 notes, about 9 s left\x1b[K',
			'\rvault-query: reading the vault, 2,000 / 4,000 notes, about 4 s left\x1b[K',
		]);
		line.update('building the search index', 0, 0);
		expect(stream.written.at(-1)).toBe('\rvault-query: building the search index\x1b[K');
		line.end();
		expect(stream.written.at(-1)).toBe('\r\x1b[K'); // erased: the answer starts on a clean line
		line.end();
		expect(stream.written).toHaveLength(4); // erased once
	});

	it('is cut to the terminal width', () => {
		const stream = fakeStream(true, 30);
		const line = new ProgressLine(stream, true, () => 5000, 0);
		line.update('reading the vault', 10, 50_000);
		expect(stream.written[0]!.replace('\r', '').replace('\x1b[K', '')).toHaveLength(29);
	});

	it('writes nothing to a stream that is not a terminal, nor when not wanted, and erases nothing it did not draw', () => {
		for (const [stream, wanted] of [
			[fakeStream(false), true],
			[fakeStream(true), false],
		] as const) {
			const line = new ProgressLine(stream, wanted, () => 10_000, 0);
			line.update('reading the vault', 10, 100);
			line.end();
			expect(stream.written).toEqual([]);
		}
	});

	it('is not wanted with --json or --quiet (before --), and its delay can be set for tests only as a whole number', () => {
		expect(progressWanted(['search', 'x'])).toBe(true);
		expect(progressWanted(['search', 'x', '--json'])).toBe(false);
		expect(progressWanted(['search', 'x', '--quiet'])).toBe(false);
		expect(progressWanted(['grep', '--', '--quiet'])).toBe(true);
		expect(progressAfterMs({})).toBe(PROGRESS_AFTER_MS);
		expect(progressAfterMs({ VAULT_QUERY_PROGRESS_AFTER_MS: '0' })).toBe(0);
		expect(progressAfterMs({ VAULT_QUERY_PROGRESS_AFTER_MS: 'soon' })).toBe(PROGRESS_AFTER_MS);
	});
});

describe('progress of a call that reads the vault itself', () => {
	let cache: string;
	let vault: string;
	const saved = { cache: process.env.VAULT_QUERY_CACHE_DIR, after: process.env.VAULT_QUERY_PROGRESS_AFTER_MS };
	beforeEach(() => {
		cache = mkdtempSync(join(tmpdir(), 'vq-progress-cache-'));
		vault = join(mkdtempSync(join(tmpdir(), 'vq-progress-vault-')), 'vault');
		cpSync(EXAMPLE_VAULT, vault, { recursive: true });
		process.env.VAULT_QUERY_CACHE_DIR = cache;
		process.env.VAULT_QUERY_PROGRESS_AFTER_MS = '0'; // the example vault reads fast: show the line at once
	});
	afterEach(() => {
		process.env.VAULT_QUERY_CACHE_DIR = saved.cache;
		process.env.VAULT_QUERY_PROGRESS_AFTER_MS = saved.after;
		rmSync(cache, { recursive: true, force: true });
		rmSync(join(vault, '..'), { recursive: true, force: true });
	});

	/** Runs `argv` in-process with a terminal as its progress stream. */
	async function onTerminal(argv: string[]): Promise<string[]> {
		const tty = fakeStream(true);
		await runCli(argv, { stdout: () => undefined, stderr: () => undefined, cwd: REPO, progress: tty });
		return tty.written;
	}

	it('draws the line while the vault is read from scratch and erases it; --json and --quiet draw none', async () => {
		expect(await onTerminal(['tag', 'decision', '--vault', vault, '--json'])).toEqual([]);
		rmSync(cache, { recursive: true, force: true });
		expect(await onTerminal(['tag', 'decision', '--vault', vault, '--quiet'])).toEqual([]);
		rmSync(cache, { recursive: true, force: true });
		const drawn = await onTerminal(['tag', 'decision', '--vault', vault]);
		expect(drawn[0]!.startsWith('\rvault-query: reading the vault, 0 / ')).toBe(true);
		expect(drawn[0]!.endsWith(' notes\x1b[K')).toBe(true);
		expect(drawn.at(-1)).toBe('\r\x1b[K');
	});

	it('index (a re-index) says each phase on a terminal', async () => {
		const drawn = await onTerminal(['index', '--vault', vault]);
		expect(drawn.join('')).toMatch(
			/reading the vault.*building the search index.*building the trigram index.*saving the indexes/s,
		);
		expect(drawn.at(-1)).toBe('\r\x1b[K');
	});

	it('the built CLI writes no progress to piped stderr', async () => {
		const { stderr } = await promisify(execFile)(
			process.execPath,
			[join(REPO, 'dist', 'cli.mjs'), 'tag', 'decision', '--vault', vault, '--no-server'],
			{ env: { ...process.env, VAULT_QUERY_PROGRESS_AFTER_MS: '0' }, encoding: 'utf8' },
		).catch((e: { stderr: string }) => e);
		expect(stderr).not.toContain('\r');
		expect(stderr).not.toMatch(/reading the vault/);
	});
});
