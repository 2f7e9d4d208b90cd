import { describe, expect, it } from 'vitest';
import { buildPack } from '../../src/core/pack/pack';
import { SearchIndex } from '../../src/core/search/search';
import { MemorySource } from '../helpers/memory-source';

describe('issue 14: coverage never over-claims', () => {
	it('a facet with a key word no packed source holds is at most partial, and COVERAGE says what is missing', async () => {
		const source = new MemorySource({
			'Showcase.md': '# Showcase\n\nThe vault showcase template lists plugins and themes for the hub.\n',
			'Other.md': 'Unrelated text about gardening.\n',
		});
		const index = await SearchIndex.build(source);
		const pack = await buildPack(source, index, {
			query: 'which showcase template for the hub quokkas',
			budget: 2000,
			builtAt: '2026-11-29',
		});
		expect(pack.status).toBe('success');
		const c = pack.coverage[0]!;
		expect(c.missing_terms).toContain('quokkas');
		expect(c.status).toBe('partial');
		expect(pack.markdown).toMatch(/missing: [^)]*quokkas/);
	});
});

describe('an unanswered facet says where its words are', () => {
	/** A vault whose only mentions of "daily notes" are a template's title, a folder and a tag: no prose answers it. */
	const source = (): MemorySource =>
		new MemorySource({
			'Templates/Daily Note Template.md': '---\ntags:\n  - daily\n---\n## Notes\n\n![[Daily.base]]\n',
			'Daily/2023-09-12.md': '## Notes\n\n![[Daily.base]]\n',
			'Gardening.md': '# Gardening\n\nTomatoes need sun and water every morning.\n',
		});

	/** The pack of `query` over that vault. */
	const packOf = async (query: string): ReturnType<typeof buildPack> => {
		const s = source();
		return buildPack(s, await SearchIndex.build(s), { query, budget: 2000, builtAt: '2026-12-04' });
	};

	it('words found only outside any answering section: COVERAGE does not call them "not found", GAPS names the notes to read', async () => {
		const pack = await packOf('daily notes');
		expect(pack.status).toBe('success');
		expect(pack.pack).toEqual([]);
		const c = pack.coverage[0]!;
		expect(c.status).toBe('gap');
		expect(c.absent_terms).toEqual([]);
		expect(pack.markdown).toContain('daily notes — GAP (in no answering section: daily, notes)');
		expect(pack.markdown).not.toContain('not found');
		const gap = pack.gaps.find((g) => g.kind === 'unanswered')!;
		expect(gap.notes).toEqual(expect.arrayContaining(['Templates/Daily Note Template.md', 'Daily/2023-09-12.md']));
		expect(gap.notes).not.toContain('Gardening.md');
		expect(gap.matched).toBe(2);
		expect(gap.text).toContain('no section answers it; 2 notes match its words');
	});

	it('words no note holds are named as not in the vault, and no note is offered as a lead', async () => {
		const pack = await packOf('quokka husbandry');
		const c = pack.coverage[0]!;
		expect(c.absent_terms).toEqual(['quokka', 'husbandry']);
		expect(pack.markdown).toContain('quokka husbandry — GAP (not in the vault: quokka, husbandry)');
		const gap = pack.gaps.find((g) => g.kind === 'unanswered')!;
		expect(gap.notes).toBeUndefined();
		expect(gap.text).toBe('"quokka husbandry": no note in the vault answers it');
	});
});
