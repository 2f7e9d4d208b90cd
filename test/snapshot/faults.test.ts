/**
 * Faults and concurrency: a damaged, truncated or foreign snapshot is ignored and rebuilt (said on
 * stderr with --verbose), an unwritable cache costs one warning, two processes at once both answer,
 * a moved vault gets answered correctly, the cache is private, and the vault is never written.
 */
import { execFile } from 'node:child_process';
import {
	cpSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	renameSync,
	rmSync,
	statSync,
	writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli';
import { hashTree } from '../helpers/hash';
import { EXAMPLE_VAULT, REPO } from '../helpers/paths';

const run = promisify(execFile);
let cache: string;
let vault: string;
let previousCache: string | undefined;

beforeEach(() => {
	previousCache = process.env.VAULT_QUERY_CACHE_DIR;
	// Notes copied a moment ago are "racy" and re-read on the next call; these tests study the cache, not that.
	process.env.VAULT_QUERY_RACY_MS = '0';
	cache = mkdtempSync(join(tmpdir(), 'vq-fault-cache-'));
	process.env.VAULT_QUERY_CACHE_DIR = cache;
	vault = join(mkdtempSync(join(tmpdir(), 'vq-fault-vault-')), 'vault');
	cpSync(EXAMPLE_VAULT, vault, { recursive: true });
});
afterEach(() => {
	process.env.VAULT_QUERY_CACHE_DIR = previousCache;
	delete process.env.VAULT_QUERY_RACY_MS;
	rmSync(cache, { recursive: true, force: true });
	rmSync(join(vault, '..'), { recursive: true, force: true });
});

/** The snapshot file `index --status` names. */
function snapshotFileOf(status: { stdout: string }): string {
	return /file: +(\S+)/.exec(status.stdout)?.[1] ?? '';
}

/** The one snapshot file in the cache folder. */
function snapshotFile(): string {
	const files = readdirSync(cache).filter((f) => f.endsWith('.vqs'));
	expect(files).toHaveLength(1);
	return join(cache, files[0]!);
}

/** The answer of a full read, to compare with. */
async function truth(args: string[]): Promise<string> {
	return (await cli([...args, '--vault', vault, '--json', '--no-cache'])).stdout;
}

const QUERY = ['backlinks', 'conventions'];

describe('snapshot faults', () => {
	it('builds on the first query, then answers from it; the cache is private and the vault untouched', async () => {
		const before = hashTree(vault);
		const first = await cli([...QUERY, '--vault', vault, '--json', '--verbose']);
		expect(first.stderr).toMatch(/index snapshot built/);
		const second = await cli([...QUERY, '--vault', vault, '--json', '--verbose']);
		expect(second.stderr).toMatch(/index snapshot used as saved/);
		expect(second.stdout).toBe(await truth(QUERY));
		expect(statSync(cache).mode & 0o777).toBe(0o700);
		expect(statSync(snapshotFile()).mode & 0o777).toBe(0o600);
		expect(hashTree(vault)).toBe(before);
		expect(readdirSync(vault).some((f) => f.includes('.vqs') || f.endsWith('.tmp'))).toBe(false);
	});

	for (const [what, damage] of [
		['truncated', (b: Buffer): Buffer => b.subarray(0, Math.floor(b.length / 2))],
		// A byte of the file list, inside the part every call verifies whole (metadata has checks of its own: below).
		[
			'corrupted',
			(b: Buffer): Buffer => Buffer.from(b.map((x, i) => (i === b.indexOf('conventions.md') + 2 ? x ^ 0xff : x))),
		],
		[
			'from another format version',
			(b: Buffer): Buffer => Buffer.concat([b.subarray(0, 4), Buffer.from([99, 0, 0, 0]), b.subarray(8)]),
		],
		['not a snapshot at all', (): Buffer => Buffer.from('hello')],
		['empty', (): Buffer => Buffer.alloc(0)],
	] as const) {
		it(`ignores a snapshot that is ${what}, says so with --verbose, and rebuilds it`, async () => {
			await cli([...QUERY, '--vault', vault]);
			const file = snapshotFile();
			writeFileSync(file, damage(readFileSync(file)));
			const quiet = await cli([...QUERY, '--vault', vault, '--json']);
			expect(quiet.stderr).toBe('');
			expect(quiet.stdout).toBe(await truth(QUERY));
			writeFileSync(file, damage(readFileSync(file)));
			const loud = await cli([...QUERY, '--vault', vault, '--json', '--verbose']);
			expect(loud.stderr).toMatch(/snapshot ignored: .*; rebuilt from the vault/);
			expect(loud.stdout).toBe(await truth(QUERY));
			expect((await cli([...QUERY, '--vault', vault, '--verbose'])).stderr).toMatch(/used as saved/);
		});
	}

	it('takes a note whose saved metadata fails its check from the vault, answers right, and saves the snapshot again', async () => {
		const PROP = ['prop', 'status', 'on-hold'];
		await cli([...PROP, '--vault', vault]);
		const file = snapshotFile();
		const bytes = readFileSync(file);
		// Still valid JSON, but another value: only the field's own check can tell.
		const at = bytes.indexOf('"status":"on-hold"');
		expect(at).toBeGreaterThan(0);
		bytes[at + '"status":"on-hol'.length]! ^= 0x08; // on-hold → on-holl
		writeFileSync(file, bytes);
		const loud = await cli([...PROP, '--vault', vault, '--json', '--verbose']);
		expect(loud.stdout).toBe(await truth(PROP));
		expect(JSON.parse(loud.stdout)).toMatchObject({ matched: 1 });
		expect(loud.stderr).toMatch(/saved metadata of 1 note failed its check; read from the vault instead/);
		expect(readFileSync(snapshotFile()).indexOf('"status":"on-hold"')).toBeGreaterThan(0);
		const again = await cli([...PROP, '--vault', vault, '--json', '--verbose']);
		expect(again.stderr).toMatch(/used as saved/);
		expect(again.stderr).not.toMatch(/failed its check/);
		expect(again.stdout).toBe(loud.stdout);
	});

	it('ignores damaged search and trigram index parts, says so with --verbose, and rebuilds them', async () => {
		const SEARCH = ['search', 'conventions'];
		const GREP = ['grep', 'conventions'];
		await cli([...SEARCH, '--vault', vault]);
		await cli([...GREP, '--vault', vault]);
		const snapshot = snapshotFileOf(await cli(['index', '--status', '--vault', vault]));
		const parts = readdirSync(cache).filter((f) => f.endsWith('.vqs') && join(cache, f) !== snapshot);
		expect(parts).toHaveLength(2);
		for (const part of parts) {
			const bytes = readFileSync(join(cache, part));
			writeFileSync(join(cache, part), bytes.subarray(0, bytes.length - 9));
		}
		for (const query of [SEARCH, GREP]) {
			const loud = await cli([...query, '--vault', vault, '--json', '--verbose']);
			expect(loud.stderr).toMatch(
				/(search|trigrams) index: part: truncated or padded \(\d+ bytes, expected \d+\); rebuilt/,
			);
			expect(loud.stdout).toBe(await truth(query));
			const again = await cli([...query, '--vault', vault, '--json', '--verbose']);
			expect(again.stderr).toMatch(/(search|trigrams) index loaded \(0 notes re-indexed\)/);
			expect(again.stdout).toBe(await truth(query));
		}
	});

	it('answers like today with one warning when the cache folder cannot be written', async () => {
		const blocker = join(cache, 'a-file');
		writeFileSync(blocker, 'not a folder');
		process.env.VAULT_QUERY_CACHE_DIR = join(blocker, 'cache');
		const result = await cli([...QUERY, '--vault', vault, '--json']);
		expect(result.code).toBe(0);
		expect(result.stdout).toBe(await truth(QUERY));
		expect(result.stderr.split('\n')).toHaveLength(1);
		expect(result.stderr).toMatch(/warning: the index snapshot could not be saved/);
	});

	it('answers correctly after the vault folder is moved, and after another vault takes its place', async () => {
		await cli([...QUERY, '--vault', vault]);
		const moved = `${vault}-moved`;
		renameSync(vault, moved);
		const atNewPlace = await cli([...QUERY, '--vault', moved, '--json', '--verbose']);
		expect(atNewPlace.stderr).toMatch(/index snapshot built/);
		expect(atNewPlace.stdout).toBe((await cli([...QUERY, '--vault', moved, '--json', '--no-cache'])).stdout);
		// A different vault at the old path: the old snapshot's notes no longer match their fingerprints.
		mkdirSync(vault);
		writeFileSync(join(vault, 'conventions.md'), '# Conventions\n');
		writeFileSync(join(vault, 'other.md'), 'See [[conventions]].\n');
		const replaced = await cli([...QUERY, '--vault', vault, '--json']);
		expect(replaced.stdout).toBe(await truth(QUERY));
		rmSync(moved, { recursive: true, force: true });
	});

	it('lets two processes build and read the same snapshot at once; both answer correctly', async () => {
		const cliPath = join(REPO, 'dist', 'cli.mjs');
		if (!existsSync(cliPath)) throw new Error('dist/cli.mjs missing: run npm run build first');
		const env = { ...process.env, VAULT_QUERY_CACHE_DIR: cache, VAULT_QUERY_RACY_MS: '0' };
		const expected = await truth(QUERY);
		for (let round = 0; round < 3; round++) {
			if (round === 2) writeFileSync(join(vault, 'new-note.md'), 'Links to [[conventions]].\n');
			const both = await Promise.all(
				[0, 1].map(() => run(process.execPath, [cliPath, ...QUERY, '--vault', vault, '--json'], { env })),
			);
			const want = round === 2 ? await truth(QUERY) : expected;
			for (const r of both) {
				expect(r.stdout.trimEnd()).toBe(want);
				expect(r.stderr).toBe('');
			}
		}
		expect(readdirSync(cache).filter((f) => f.endsWith('.tmp'))).toEqual([]);
		// The snapshot left behind is whole: the built CLI uses it as saved.
		expect(
			(await run(process.execPath, [cliPath, ...QUERY, '--vault', vault, '--verbose'], { env })).stderr,
		).toMatch(/used as saved/);
	});
});
