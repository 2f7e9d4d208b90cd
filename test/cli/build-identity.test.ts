/**
 * One version source and the build's identity: package.json's version is the CLI's, the plugin
 * manifest's and a key of versions.json (`npm version` runs scripts/version-bump.mjs); a snapshot is
 * tied to a hash of the built code, so a copy of dist/ in another folder reuses it and a changed
 * build does not. Runs the built CLI (`npm run build` first).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EXAMPLE_VAULT, REPO } from '../helpers/paths';

const readJson = (path: string): Record<string, unknown> =>
	JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
const PACKAGE_VERSION = readJson(join(REPO, 'package.json')).version as string;

const dirs: string[] = [];
const tempDir = (prefix: string): string => {
	const dir = mkdtempSync(join(tmpdir(), prefix));
	dirs.push(dir);
	return dir;
};

afterEach(() => {
	for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** The built CLI at `cli` with its own snapshot cache `cache` and no background server: what `--verbose` said. */
function verboseRun(cli: string, cache: string): string {
	const run = spawnSync(process.execPath, [cli, 'tag', 'project', '--vault', EXAMPLE_VAULT, '--verbose'], {
		encoding: 'utf8',
		env: { ...process.env, VAULT_QUERY_CACHE_DIR: cache, VAULT_QUERY_SERVER: 'off' },
	});
	expect(run.status, run.stderr).toBe(0);
	return run.stderr;
}

/** The built dist/ (fails with the reason when it is missing). */
function builtDist(): string {
	const dist = join(REPO, 'dist');
	if (!existsSync(join(dist, 'cli.mjs'))) throw new Error('dist/cli.mjs missing: run npm run build first');
	return dist;
}

describe('one version source', () => {
	it('the manifest, versions.json and the built CLI carry package.json’s version', () => {
		expect(readJson(join(REPO, 'manifest.json')).version).toBe(PACKAGE_VERSION);
		expect(Object.keys(readJson(join(REPO, 'versions.json')))).toContain(PACKAGE_VERSION);
		const printed = execFileSync(process.execPath, [join(builtDist(), 'cli.mjs'), '--version'], {
			encoding: 'utf8',
			env: { ...process.env, VAULT_QUERY_SERVER: 'off' },
		});
		expect(printed.trim()).toBe(PACKAGE_VERSION);
		expect(existsSync(join(REPO, 'src', 'cli', 'version.ts'))).toBe(false);
	});

	it('the npm version hook writes the new version into the manifest and versions.json', () => {
		const dir = tempDir('vq-version-');
		writeFileSync(join(dir, 'manifest.json'), readFileSync(join(REPO, 'manifest.json')));
		writeFileSync(join(dir, 'versions.json'), readFileSync(join(REPO, 'versions.json')));
		const before = readJson(join(dir, 'versions.json'));
		execFileSync(process.execPath, [join(REPO, 'scripts', 'version-bump.mjs')], {
			cwd: dir,
			env: { ...process.env, npm_package_version: '9.8.7' },
		});
		const manifest = readJson(join(dir, 'manifest.json'));
		expect(manifest.version).toBe('9.8.7');
		expect(readJson(join(dir, 'versions.json'))).toEqual({ ...before, '9.8.7': manifest.minAppVersion });
	});
});

describe('the build stamp', () => {
	it('a copy of dist/ in another folder reuses the snapshot; a changed build rebuilds it', () => {
		const cache = tempDir('vq-stamp-cache-');
		expect(verboseRun(join(builtDist(), 'cli.mjs'), cache)).toMatch(/index snapshot (built|used as saved)/);
		const copy = join(tempDir('vq-stamp-copy-'), 'dist');
		cpSync(builtDist(), copy, { recursive: true });
		expect(verboseRun(join(copy, 'cli.mjs'), cache)).toMatch(/index snapshot used as saved/);
		appendFileSync(join(copy, 'cli.mjs'), '\n// another build\n');
		const changed = verboseRun(join(copy, 'cli.mjs'), cache);
		expect(changed).toMatch(/saved by another build/);
		expect(changed).toMatch(/index snapshot built/);
	});
});
