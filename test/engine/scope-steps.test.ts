/**
 * Scoping as steps: a host's main thread scopes a large vault in slices. The steps pause every
 * few thousand notes and give exactly the scope the one-go call gives, exclusions included.
 */
import { describe, expect, it } from 'vitest';
import { resolveScope, resolveScopeSteps } from '../../src/core/scope';
import { MemorySource } from '../helpers/memory-source';

/** 10,000 notes: most in scope, some in an excluded folder, some matched by an "Excluded files" entry. */
function largeVault(): MemorySource {
	const files: Record<string, string> = {};
	for (let i = 0; i < 10_000; i++) files[`${['notes', 'archive', '_views', 'drafts'][i % 4]}/n${i}.md`] = '';
	const source = new MemorySource(files);
	source.userIgnoreFilters = ['drafts/'];
	return source;
}

describe('scope as steps', () => {
	it('pauses every 4,096 notes and gives the one-go scope', () => {
		const settings = { excludedFolders: ['_views/'] };
		const steps = resolveScopeSteps(largeVault(), settings);
		let pauses = 0;
		let r = steps.next();
		for (; r.done !== true; r = steps.next()) pauses++;
		expect(pauses).toBe(2);
		const once = resolveScope(largeVault(), settings);
		expect(r.value).toEqual(once);
		expect(once.notes).toHaveLength(5_000);
		expect(once.exclusions).toEqual([
			'Not searched: 2500 note(s) in _views/',
			'Not searched: 2500 note(s) in Excluded files: drafts/',
		]);
	});
});
