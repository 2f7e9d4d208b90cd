/** `npm run install-plugin -- <vault>` (scripts/install-plugin.mjs), run as a process on temp folders. */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { REPO } from '../helpers/paths';

const SCRIPT = join(REPO, 'scripts', 'install-plugin.mjs');
const FILES = ['main.js', 'manifest.json', 'styles.css'];

function install(...args: string[]): { status: number | null; stdout: string; stderr: string } {
	const result = spawnSync(process.execPath, [SCRIPT, ...args], { encoding: 'utf8' });
	return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

let dir: string;
beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), 'vault-query-install-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('install-plugin', () => {
	it('refuses without a vault argument, or with an unknown option', () => {
		expect(install()).toMatchObject({ status: 2, stderr: expect.stringContaining('no vault given') as unknown });
		expect(install(dir, '--force')).toMatchObject({
			status: 2,
			stderr: expect.stringContaining('unknown option --force') as unknown,
		});
	});

	it('refuses a path that is not a directory', () => {
		const file = join(dir, 'note.md');
		writeFileSync(file, '# not a vault');
		expect(install(join(dir, 'missing'))).toMatchObject({
			status: 2,
			stderr: expect.stringContaining('is not a directory') as unknown,
		});
		expect(install(file)).toMatchObject({
			status: 2,
			stderr: expect.stringContaining('is not a directory') as unknown,
		});
	});

	it('refuses a folder without the config folder, naming it', () => {
		const result = install(dir);
		expect(result.status).toBe(2);
		expect(result.stderr).toContain('does not look like an Obsidian vault');
		expect(existsSync(join(dir, 'plugins'))).toBe(false);
	});

	it.runIf(existsSync(join(REPO, 'main.js')))(
		'copies main.js, manifest.json and styles.css into <configDir>/plugins/vault-query/',
		() => {
			const configDir = join(dir, '.obsidian');
			mkdirSync(configDir);
			const result = install(dir);
			expect(result.stderr).toBe('');
			expect(result.status).toBe(0);
			const target = join(configDir, 'plugins', 'vault-query');
			for (const file of FILES) expect(readFileSync(join(target, file))).toEqual(readFileSync(join(REPO, file)));
			expect(result.stdout).toContain(target);
		},
	);

	it.runIf(existsSync(join(REPO, 'main.js')))('honours --config-dir for a vault with a renamed config folder', () => {
		mkdirSync(join(dir, '.config'));
		expect(install(dir, '--config-dir', '.config').status).toBe(0);
		expect(existsSync(join(dir, '.config', 'plugins', 'vault-query', 'main.js'))).toBe(true);
	});
});
