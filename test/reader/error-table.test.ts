import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runReader, type ReaderReport } from '../../src/core/reader/index';
import type { NoteSource } from '../../src/core/port';
import { openVault } from '../../src/node/vault-source';
import { cli } from '../helpers/cli';
import { EXAMPLE_VAULT } from '../helpers/paths';
import { paths, readerJson, tempVault } from './helpers';

/** Wraps a source so the test sees every note read. */
function countingReads(source: NoteSource): { source: NoteSource; reads: string[] } {
	const reads: string[] = [];
	const read = (path: string): Promise<string> => {
		reads.push(path);
		return source.read(path);
	};
	// Every other member delegates to the real source (methods bound, so private fields still work).
	const wrapped = new Proxy(source, {
		get(target, key): unknown {
			if (key === 'read') return read;
			const value: unknown = Reflect.get(target, key, target);
			return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
		},
	});
	return { source: wrapped, reads };
}

/**
 * The seed's error-handling table, one test per row: each returns the response the seed
 * specifies (seed 001, "Error Handling").
 */
describe('seed error table', () => {
	it('Schema file missing → fail before any read; report <vault_path>/_meta/frontmatter-schema.md not found', async () => {
		const vault = tempVault({ 'Notes/a.md': '---\ntype: claim\n---\nbody\n' });
		const { source, reads } = countingReads(await openVault(vault));
		const report = await runReader(source, { operation: 'filter', where: ['type=claim'] });
		expect(report.status).toBe('failed');
		expect(report.error).toContain(`schema: ${join(vault, '_meta/frontmatter-schema.md')} not found. `);
		expect(report.error).toContain('a ```yaml block with fields:, or "## Type registry" sections');
		expect(report.error).toContain('Draft one from this vault with `vault-query schema draft');
		expect(reads).toEqual([]);
		const run = await cli(['lookup', 'a', '--vault', vault]);
		expect(run.code).toBe(2);
		expect(run.stderr).toContain(`${vault}/_meta/frontmatter-schema.md not found`);
	});

	it('Vault path is not a directory → fail with the resolved path', async () => {
		const file = join(EXAMPLE_VAULT, 'Home.md');
		const asFile = await readerJson(['filter', '--where', 'type=claim'], file);
		expect(asFile.code).toBe(2);
		expect(asFile.report.status).toBe('failed');
		expect(asFile.report.error).toContain(file);
		const relative = await cli(['lookup', 'x', '--vault', 'no/such/vault', '--json'], EXAMPLE_VAULT);
		expect(relative.code).toBe(2);
		expect((JSON.parse(relative.stdout) as ReaderReport).error).toContain(join(EXAMPLE_VAULT, 'no/such/vault'));
	});

	it('where contains a field not in the schema → fail; list valid field names', async () => {
		const { code, report, stderr } = await readerJson(['filter', '--where', 'Confidence=likely']);
		expect(code).toBe(2);
		expect(report.error).toMatch(
			/^where: unknown field "Confidence"; the schema allows: confidence, created, domain, last_verified, maturity, rating, source, source_type, status, summary, tags, type; did you mean "confidence"\?$/,
		);
		expect(report.suggestions).toEqual(['did you mean "confidence"?']);
		expect(stderr).toContain('unknown field "Confidence"');
	});

	it('where value not in the enum (domain: investng) → fail; list valid enum values', async () => {
		const { code, report } = await readerJson(['filter', '--where', 'domain=investng']);
		expect(code).toBe(2);
		expect(report.error).toBe(
			'where: "investng" is not a valid domain; the schema allows: investing, engineering, health, meta; did you mean "investing"?',
		);
	});

	it('slug for lookup matches no file in any scoped folder → success, empty results and the folders tried', async () => {
		const { code, report } = await readerJson(['lookup', 'no-such-note', '--folders', 'sources,skill-lab']);
		expect(code).toBe(1);
		expect(report.status).toBe('success');
		expect(report.results).toEqual([]);
		expect(report.tried).toEqual(['sources/no-such-note.md', 'skill-lab/no-such-note.md']);
		expect(report.limitations).toContain(
			'No note "no-such-note" in scope; tried: sources/no-such-note.md, skill-lab/no-such-note.md',
		);
	});

	it('regex set but pattern not a valid regex → fail with the regex compile error', async () => {
		const { code, report } = await readerJson(['text-search', '([a-z', '--regex']);
		expect(code).toBe(2);
		expect(report.error).toMatch(/^pattern: invalid regular expression \(RE2 syntax\): missing closing \]/);
	});

	it('folders includes a path that does not exist → fail with the missing folder name', async () => {
		const { code, report } = await readerJson(['filter', '--where', 'type=claim', '--folders', 'skill-lab,Raw']);
		expect(code).toBe(2);
		expect(report.error).toBe('folders: no notes under "Raw/" in this vault');
	});

	it('file has no frontmatter → skipped and counted in the Skipped section', async () => {
		const { report } = await readerJson(['filter', '--where', 'domain=investing']);
		expect(report.skipped).toEqual([{ path: 'skill-lab/scratch.md', reason: 'no frontmatter' }]);
		expect(report.status).toBe('success');
	});

	it('note matches where but is status: archived and include_archived is false → excluded, counted in the archived line', async () => {
		const { report } = await readerJson(['filter', '--where', 'domain=investing']);
		expect(paths(report)).not.toContain('skill-lab/index-funds.md');
		expect(report.limitations).toContain(
			'Filters applied: where domain=investing; include_archived=false (1 note with status: archived excluded)',
		);
		const included = await readerJson(['filter', '--where', 'domain=investing', '--include-archived']);
		expect(paths(included.report)).toContain('skill-lab/index-funds.md');
	});
});
