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
