/**
 * When a saved index part is written again: an engine that re-indexed a few notes over a loaded
 * part answers from it without rewriting it (a whole part's encoding held hundreds of MB at 50k
 * notes for one changed note), one that re-indexed many rewrites it, and `index` always does.
 */
import { createHash } from 'node:crypto';
import { appendFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli';
import { cacheSandbox } from '../helpers/cache-sandbox';

const box = cacheSandbox('resave');

/** Every file of the cache folder, by a hash of its bytes. */
function cacheFiles(): Map<string, string> {
	return new Map(
		readdirSync(box.cache)
			.filter((f) => f.endsWith('.vqs'))
			.map((f) => [
				f,
				createHash('sha256')
					.update(readFileSync(join(box.cache, f)))
					.digest('hex'),
			]),
	);
}

/** The files whose bytes differ between two listings. */
function rewritten(before: Map<string, string>, after: Map<string, string>): string[] {
	return [...after].filter(([f, h]) => before.get(f) !== h).map(([f]) => f);
}

const SEARCH = ['search', 'conventions rules'];

describe('index parts saved again', () => {
	it('not for a few re-indexed notes; once more than 32 were; always by `index`', async () => {
		expect((await cli(['index', '--vault', box.vault])).code).toBe(0);
		const saved = cacheFiles();
		expect(saved.size).toBe(3); // the snapshot, the search part, the trigram part

		appendFileSync(join(box.vault, 'conventions.md'), '\nOne more line about the rules.\n');
		const few = await cli([...SEARCH, '--vault', box.vault, '--json', '--verbose']);
		expect(few.stderr).toMatch(/search index loaded \(1 notes re-indexed\)/);
		expect(few.stderr).not.toMatch(/search index saved/);
		expect(few.stdout).toBe((await cli([...SEARCH, '--vault', box.vault, '--json', '--no-cache'])).stdout);
		const afterFew = cacheFiles();
		// Only the snapshot itself took the edit; both parts are the bytes `index` wrote.
		expect(rewritten(saved, afterFew)).toHaveLength(1);

		for (let i = 0; i < 40; i++)
			writeFileSync(join(box.vault, `new note ${i}.md`), `# New note ${i}\n\nAbout the rules, take ${i}.\n`);
		const many = await cli([...SEARCH, '--vault', box.vault, '--json', '--verbose']);
		expect(many.stderr).toMatch(/search index loaded \(41 notes re-indexed\)/);
		expect(many.stderr).toMatch(/search index saved/);
		expect(many.stdout).toBe((await cli([...SEARCH, '--vault', box.vault, '--json', '--no-cache'])).stdout);
		const afterMany = cacheFiles();
		expect(rewritten(afterFew, afterMany).length).toBeGreaterThanOrEqual(2); // the snapshot and the search part

		appendFileSync(join(box.vault, 'conventions.md'), '\nAnd another.\n');
		expect((await cli(['index', '--vault', box.vault])).code).toBe(0);
		expect(rewritten(afterMany, cacheFiles())).toHaveLength(3);
	});
});
