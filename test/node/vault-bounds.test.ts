/**
 * The walk is bounded (issue 13): the file-system root and the home folder are refused unless
 * asked for, and a walk meeting more files, deeper folders or more bytes than a real vault stops
 * with a clear failed answer naming the flag that raises the bound.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openVault, VaultError } from '../../src/node/vault-source';
import { cli } from '../helpers/cli';

let vault: string;

beforeAll(() => {
	vault = mkdtempSync(join(tmpdir(), 'vq-bounds-'));
	for (let i = 0; i < 5; i++) writeFileSync(join(vault, `n${i}.md`), `note ${i} ${'x'.repeat(400)}\n`);
	mkdirSync(join(vault, 'a/b/c'), { recursive: true });
	writeFileSync(join(vault, 'a/b/c/deep.md'), 'deep\n');
});

afterAll(() => {
	if (vault) rmSync(vault, { recursive: true, force: true });
});

describe('walk bounds', () => {
	it('refuses the file-system root unless --allow-any-folder is given', async () => {
		const run = await cli(['grep', 'x', '--vault', '/']);
		expect(run.code).toBe(2);
		expect(run.stderr).toMatch(/Refusing to open \/ as a vault: it is the file-system root.*--allow-any-folder/);
	});

	it('refuses the home folder', async () => {
		const saved = process.env.HOME;
		process.env.HOME = vault;
		try {
			await expect(openVault(vault)).rejects.toThrow(/it is your home folder/);
			await expect(openVault(vault, { allowAnyFolder: true })).resolves.toBeDefined();
		} finally {
			process.env.HOME = saved;
		}
	});

	it('stops when the vault holds more files than --max-files', async () => {
		const run = await cli(['grep', 'note', '--vault', vault, '--max-files', '3']);
		expect(run.code).toBe(2);
		expect(run.stderr).toMatch(
			/Stopped walking .*: more than 3 files: is this really a vault\? \(--max-files raises the bound\)/,
		);
		expect((await cli(['grep', 'note', '--vault', vault, '--max-files', '6'])).code).toBe(0);
	});

	it('stops at folders nested deeper than --max-depth', async () => {
		const run = await cli(['grep', 'deep', '--vault', vault, '--max-depth', '2']);
		expect(run.code).toBe(2);
		expect(run.stderr).toMatch(/folders nested more than 2 deep \(a\/b\/c\/\).*--max-depth/);
		expect((await cli(['grep', 'deep', '--vault', vault, '--max-depth', '3'])).code).toBe(0);
	});

	it('stops when the notes hold more bytes than the bound', async () => {
		await expect(openVault(vault, { maxTotalBytes: 1000 })).rejects.toThrow(VaultError);
		await expect(openVault(vault, { maxTotalBytes: 1000 })).rejects.toThrow(
			/notes hold more than 1000 bytes: is this really a vault\? \(--max-total-mb raises the bound\)/,
		);
		await expect(openVault(vault, { maxTotalBytes: 10_000 })).resolves.toBeDefined();
	});
});
