/**
 * When a saved index part is written again: an engine that re-indexed a few notes over a loaded
 * part answers from it without rewriting it (a whole part's encoding held hundreds of MB at 50k
 * notes for one changed note), one that re-indexed many rewrites it, and `index` always does.
 */
import { createHash } from 'node:crypto';
import { appendFileSync, cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli';
import { EXAMPLE_VAULT } from '../helpers/paths';

let cache: string;
let vault: string;
let previousCache: string | undefined;

beforeEach(() => {
	previousCache = process.env.VAULT_QUERY_CACHE_DIR;
	process.env.VAULT_QUERY_RACY_MS = '0'; // notes written a moment ago count as changed by their mtime, not re-read as racy
	cache = mkdtempSync(join(tmpdir(), 'vq-resave-cache-'));
	process.env.VAULT_QUERY_CACHE_DIR = cache;
	vault = join(mkdtempSync(join(tmpdir(), 'vq-resave-vault-')), 'vault');
	cpSync(EXAMPLE_VAULT, vault, { recursive: true });
});
afterEach(() => {
	process.env.VAULT_QUERY_CACHE_DIR = previousCache;
	delete process.env.VAULT_QUERY_RACY_MS;
	rmSync(cache, { recursive: true, force: true });
	rmSync(join(vault, '..'), { recursive: true, force: true });
});

/** Every file of the cache folder, by a hash of its bytes. */
function cacheFiles(): Map<string, string> {
	return new Map(readdirSync(cache).filter((f) => f.endsWith('.vqs')).map((f) => [f, createHash('sha256').update(readFileSync(join(cache, f))).digest('hex')]));
}

/** The files whose bytes differ between two listings. */
function rewritten(before: Map<string, string>, after: Map<string, string>): string[] {
	return [...after].filter(([f, h]) => before.get(f) !== h).map(([f]) => f);
}

const SEARCH = ['search', 'conventions rules'];

describe('index parts saved again', () => {
	it('not for a few re-indexed notes; once more than 32 were; always by `index`', async () => {
		expect((await cli(['index', '--vault', vault])).code).toBe(0);
		const saved = cacheFiles();
		expect(saved.size).toBe(3); // the snapshot, the search part, the trigram part

		appendFileSync(join(vault, 'conventions.md'), '\nOne more line about the rules.\n');
		const few = await cli([...SEARCH, '--vault', vault, '--json', '--verbose']);
		expect(few.stderr).toMatch(/search index loaded \(1 notes re-indexed\)/);
		expect(few.stderr).not.toMatch(/search index saved/);
		expect(few.stdout).toBe((await cli([...SEARCH, '--vault', vault, '--json', '--no-cache'])).stdout);
		const afterFew = cacheFiles();
		// Only the snapshot itself took the edit; both parts are the bytes `index` wrote.
		expect(rewritten(saved, afterFew)).toHaveLength(1);

		for (let i = 0; i < 40; i++) writeFileSync(join(vault, `new note ${i}.md`), `# New note ${i}\n\nAbout the rules, take ${i}.\n`);
		const many = await cli([...SEARCH, '--vault', vault, '--json', '--verbose']);
		expect(many.stderr).toMatch(/search index loaded \(41 notes re-indexed\)/);
		expect(many.stderr).toMatch(/search index saved/);
		expect(many.stdout).toBe((await cli([...SEARCH, '--vault', vault, '--json', '--no-cache'])).stdout);
		const afterMany = cacheFiles();
		expect(rewritten(afterFew, afterMany).length).toBeGreaterThanOrEqual(2); // the snapshot and the search part

		appendFileSync(join(vault, 'conventions.md'), '\nAnd another.\n');
		expect((await cli(['index', '--vault', vault])).code).toBe(0);
		expect(rewritten(afterMany, cacheFiles())).toHaveLength(3);
	});
});
