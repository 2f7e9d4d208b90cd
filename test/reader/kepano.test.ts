import { join } from 'node:path';
import { expect, it } from 'vitest';
import { KEPANO_VAULT, REPO } from '../helpers/paths';
import { describeShared } from '../helpers/shared';
import { paths, readerJson } from './helpers';

/** kepano-obsidian has no schema note: the fixture outside the vault stands in (see its text). */
const SCHEMA = ['--schema', join(REPO, 'test/reader/fixtures/kepano-schema.md')];

describeShared('kepano-obsidian: typed by .obsidian/types.json', () => {
	it('rating >= 7 compares numbers (rating is "number" in types.json)', async () => {
		const { code, report } = await readerJson(
			['filter', '--where', 'rating>=7', '--folders', 'References', ...SCHEMA],
			KEPANO_VAULT,
		);
		expect(code).toBe(0);
		expect(report.schema?.path).toBe(join(REPO, 'test/reader/fixtures/kepano-schema.md'));
		expect(paths(report)).toHaveLength(11);
		expect(report.results.every((r) => typeof r.frontmatter.rating === 'number' && r.frontmatter.rating >= 7)).toBe(
			true,
		);
		expect(paths(report)).toContain('References/Blade Runner.md');
		// Every rated reference is a 7: nothing is strictly greater.
		expect(
			(await readerJson(['filter', '--where', 'rating>7', '--folders', 'References', ...SCHEMA], KEPANO_VAULT))
				.code,
		).toBe(1);
	});

	it('dates from types.json compare as dates', async () => {
		const { report } = await readerJson(
			['filter', '--where', 'last>=2023-09-14', '--where', 'rating>=7', '--folders', 'all', ...SCHEMA],
			KEPANO_VAULT,
		);
		expect(paths(report)).toContain('References/Blade Runner.md');
		expect(report.results.every((r) => String(r.frontmatter.last) >= '2023-09-14')).toBe(true);
	});

	it('under profile team-folders its Notes/ folder is the default scope; skill-lab/ is missing and said so', async () => {
		const { report } = await readerJson(
			['filter', '--where', 'year>=2020', '--profile', 'team-folders', ...SCHEMA],
			KEPANO_VAULT,
		);
		expect(report.searched.folders).toEqual(['Notes/']);
		expect(report.limitations[0]).toBe('Default folder skill-lab/ not in this vault');
		expect(paths(report).every((p) => p.startsWith('Notes/'))).toBe(true);
	});

	it('a field neither the schema nor types.json declares is rejected with a near miss', async () => {
		const { code, report } = await readerJson(['filter', '--where', 'Rating>=7', ...SCHEMA], KEPANO_VAULT);
		expect(code).toBe(2);
		expect(report.error).toMatch(
			/^where: unknown field "Rating"; the schema allows: .*rating.*; did you mean "rating"\?$/,
		);
	});

	it('without --schema the vault fails closed, naming the path tried', async () => {
		const { code, report } = await readerJson(['filter', '--where', 'rating>=7'], KEPANO_VAULT);
		expect(code).toBe(2);
		expect(report.error).toContain(`schema: ${KEPANO_VAULT}/_meta/frontmatter-schema.md not found. `);
		expect(report.error).toContain('`vault-query schema draft');
	});
});
