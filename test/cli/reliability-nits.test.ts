import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli';
import { EXAMPLE_VAULT, REPO } from '../helpers/paths';

const savedCache = process.env.VAULT_QUERY_CACHE_DIR;
afterEach(() => {
	delete process.env.VAULT_QUERY_CACHE_MAX_MB;
	process.env.VAULT_QUERY_CACHE_DIR = savedCache;
});

describe('bad settings and arguments are refused like bad flags (exit 2), never read as something else', () => {
	it('VAULT_QUERY_CACHE_MAX_MB of 0, -1, abc or empty is refused naming the variable; 2000 is taken', async () => {
		for (const value of ['0', '-1', 'abc', '']) {
			process.env.VAULT_QUERY_CACHE_MAX_MB = value;
			const run = await cli(['tag', 'copilot', '--vault', EXAMPLE_VAULT]);
			expect(run.code, value).toBe(2);
			expect(run.stderr, value).toContain(
				`VAULT_QUERY_CACHE_MAX_MB must be a positive number of MB (e.g. 2000), got "${value}"`,
			);
		}
		process.env.VAULT_QUERY_CACHE_MAX_MB = '2000';
		expect((await cli(['tag', 'copilot', '--vault', EXAMPLE_VAULT])).code).toBe(0);
	});

	it("prop '=x' names no property: exit 2, as prop '' does", async () => {
		const empty = await cli(['prop', '', '--vault', EXAMPLE_VAULT]);
		const equals = await cli(['prop', '=x', '--vault', EXAMPLE_VAULT]);
		expect(empty.code).toBe(2);
		expect(equals.code).toBe(2);
		expect(equals.stderr).toContain('<key> is empty');
	});

	it('pack says "query:" once for a query over the length limit', async () => {
		const run = await cli(['pack', 'x'.repeat(10_005), '--vault', EXAMPLE_VAULT]);
		expect(run.code).toBe(2);
		expect(run.stderr).toContain('pack: query: 10005 characters is longer');
		expect(run.stderr).not.toContain('query: query:');
	});
});

describe('a save removes the temporary files of saves that crashed', () => {
	it('removes a .tmp whose writer is gone and keeps one a live process is writing', async () => {
		const cache = mkdtempSync(join(tmpdir(), 'vq-stale-tmp-'));
		process.env.VAULT_QUERY_CACHE_DIR = cache;
		const gone = spawnSync(process.execPath, ['-e', '']).pid;
		const stale = join(cache, `0123.vqs.${gone}.k3j4.tmp`);
		const live = join(cache, `0456.vqs.${process.pid}.a1b2.tmp`);
		writeFileSync(stale, 'half a snapshot');
		writeFileSync(live, 'being written');
		expect((await cli(['tag', 'copilot', '--vault', EXAMPLE_VAULT])).code).toBe(0);
		expect(existsSync(stale)).toBe(false);
		expect(existsSync(live)).toBe(true);
	});
});

describe.runIf(process.platform === 'linux')('a failed write to stderr', () => {
	it('exits 2, not 1 ("nothing matched"), when the warnings and notes could not be written (stderr on /dev/full)', () => {
		const args = [join(REPO, 'dist', 'cli.mjs'), 'tag', 'no-such-tag', '--vault', EXAMPLE_VAULT, '--verbose'];
		const env = { ...process.env, VAULT_QUERY_SERVER: 'off' };
		const full = openSync('/dev/full', 'w');
		try {
			expect(spawnSync(process.execPath, args, { stdio: ['ignore', 'pipe', full], env }).status).toBe(2);
		} finally {
			closeSync(full);
		}
		expect(spawnSync(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env }).status).toBe(1);
	});
});
