import { describe, expect, it } from 'vitest';
import { renderSearchMarkdown, search, SearchIndex, type SearchSettings } from '../../src/core/search/search';
import { MemorySource } from '../helpers/memory-source';

const NOTES: Record<string, string> = {
	'Web/XSS Prevention.md': `---
Type: literature
Categories: [Web, Security]
Sub-Categories: [xss, injection]
Aliases: [XSS, Cross-Site Scripting, 跨站腳本攻擊]
tags: [security, interview-prep]
status: open
---
## Abstract
Escape untrusted output and set a Content Security Policy to stop script injection.

## Details
Reflected and stored attacks. See [[CSP]].
`,
	'Web/CSP.md': `---
Categories: [Web, Security]
Aliases: [Content Security Policy]
tags: [security]
status: done
---
A policy header that limits where scripts load from. Mitigates xss.
`,
	'Career/Frontend Career.md': `---
Type: permanent
Categories: [Career]
Sub-Categories: [career, learning-strategy]
Aliases: [前端職涯, Front-end career path]
tags: [career]
---
## Abstract
How to grow as a front-end developer: fundamentals first, then depth in one framework.
`,
	'Career/Resume tips.md': `---
Categories: [Career]
tags: [career]
---
Tips for writing a developer resume. Mention frontend projects.
`,
	'Notes/Performance.md': `---
tags: [performance]
---
# Rendering performance
Optimizing React rendering: memoization, virtualization. Performance budgets.
`,
	'Notes/Cooking.md': `Bake bread at 220 degrees. Nothing about security here, except the oven door.
`,
};

async function build(
	notes = NOTES,
	settings: Partial<SearchSettings> = {},
): Promise<{ source: MemorySource; index: SearchIndex }> {
	const source = new MemorySource(notes);
	const index = await SearchIndex.build(source, settings);
	return { source, index };
}

describe('ranked search', () => {
	it('ranks the alias/filename match first and explains its tier', async () => {
		const { index } = await build();
		const r = await search(index, 'xss');
		expect(r.status).toBe('success');
		expect(r.results[0]!.path).toBe('Web/XSS Prevention.md');
		expect(r.results[0]!.tier).toBe('alias-filename');
		expect(r.results[0]!.matched_terms).toContain('xss');
		expect(r.results.map((h) => h.path)).toContain('Web/CSP.md');
	});

	it('finds a note from its Chinese alias, which points at its own note (its title), not at its other aliases', async () => {
		const { index } = await build();
		const r = await search(index, '跨站腳本攻擊');
		expect(r.results[0]!.path).toBe('Web/XSS Prevention.md');
		expect(r.results[0]!.tier).toBe('alias-filename');
		expect(r.terms.expanded.map((e) => e.text)).toEqual(['XSS Prevention']);
		// The alias's title is one phrase: the CSP note says "xss" but not "XSS prevention", so the
		// alias does not reach it word by word.
		expect(r.results.map((h) => h.path)).not.toContain('Web/CSP.md');
	});

	it('boosts and labels a synthesis note', async () => {
		const { index } = await build();
		const r = await search(index, 'front-end career developing suggestion');
		expect(r.results[0]!.path).toBe('Career/Frontend Career.md');
		expect(r.results[0]!.tier).toBe('synthesis');
		expect(r.results[0]!.synthesis).toBe(true);
		const text = renderSearchMarkdown(r);
		expect(text).toContain('### 1. Frontend Career\n');
		expect(text).toContain(
			'- **Why**: a priority note (it carries the priority marker), matched in its title or properties',
		);
		expect(text).not.toMatch(/synthesis/i);
	});

	it('filters first, then ranks: tag + property + free text', async () => {
		const { index } = await build();
		const r = await search(index, 'tag:#security [status:open] xss 攻擊');
		expect(r.results.map((h) => h.path)).toEqual(['Web/XSS Prevention.md']);
		const all = await search(index, 'tag:#security');
		expect(all.results.map((h) => h.path).sort()).toEqual(['Web/CSP.md', 'Web/XSS Prevention.md']);
		expect(all.results[0]!.tier).toBe('filter');
		const neg = await search(index, 'security -tag:security');
		expect(neg.results.map((h) => h.path)).toEqual(['Notes/Cooking.md']);
	});

	it('supports phrases, exclusions, regexes, path: and file:', async () => {
		const { index } = await build();
		expect((await search(index, '"content security policy"')).results.map((h) => h.path).sort()).toEqual([
			'Web/CSP.md',
			'Web/XSS Prevention.md',
		]);
		expect((await search(index, 'security -xss')).results.map((h) => h.path)).toEqual(['Notes/Cooking.md']);
		expect((await search(index, '/memoi[sz]ation/')).results.map((h) => h.path)).toEqual(['Notes/Performance.md']);
		expect((await search(index, 'path:career tips')).results[0]!.path).toBe('Career/Resume tips.md');
		expect((await search(index, 'file:csp')).results.map((h) => h.path)).toEqual(['Web/CSP.md']);
		const bad = await search(index, '/(unclosed/');
		expect(bad.status).toBe('failed');
		expect(bad.error).toMatch(/regex/);
	});

	it('stems English words and uses the vocabulary', async () => {
		const { index } = await build();
		const r = await search(index, 'optimize performance');
		expect(r.results[0]!.path).toBe('Notes/Performance.md');
		const v = await search(index, '面試');
		expect(v.terms.expanded.map((e) => e.text)).toContain('interview-prep');
		expect(v.results[0]!.path).toBe('Web/XSS Prevention.md');
	});

	it('uses the keyword index when present, and says nothing about one that is absent', async () => {
		const { index } = await build(NOTES, { keywordIndexPath: '.claude/index.md' });
		const r = await search(index, 'xss');
		expect(r.keyword_index).toBe('missing');
		// why: advice to run a command that does not exist misleads; a missing optional file is not news.
		expect([...r.limitations, ...r.advice].join('\n')).not.toMatch(/keyword index|vault-index/i);
		const withIndex = await build(
			{
				...NOTES,
				'.claude/index.md':
					'## Keyword Index\n- oven: [[Cooking]]\n## Misc\n- [[Resume tips]] — resumes | cats: Career | aka: CV\n',
			},
			{ keywordIndexPath: '.claude/index.md' },
		);
		withIndex.index.setKeywordIndex(
			'## Keyword Index\n- oven: [[Cooking]]\n## Misc\n- [[Resume tips]] — resumes | cats: Career | aka: CV\n',
		);
		const k = await search(withIndex.index, 'oven');
		expect(k.keyword_index).toBe('used');
		expect(k.results[0]!.path).toBe('Notes/Cooking.md');
		expect(k.results[0]!.tier).toBe('keyword-index');
		const b = await search(withIndex.index, 'cv');
		expect(b.results[0]!.path).toBe('Career/Resume tips.md');
	});

	it('expands with the synonym note', async () => {
		const { index } = await build();
		index.setSynonyms('- bread: baking, 麵包\n');
		const r = await search(index, '麵包');
		expect(r.terms.expanded.map((e) => e.text)).toEqual(['bread', 'baking']);
		expect(r.results[0]!.path).toBe('Notes/Cooking.md');
	});

	it('reports advice when nothing matches', async () => {
		const { index } = await build();
		const r = await search(index, 'quantum chromodynamics');
		expect(r.status).toBe('success');
		expect(r.results).toEqual([]);
		expect(r.advice[0]).toMatch(/quantum/);
		expect(renderSearchMarkdown(r)).toContain('No notes found.');
	});

	it('updates on change, rename and delete', async () => {
		const { source, index } = await build();
		expect((await search(index, 'sourdough')).results).toEqual([]);
		expect(index.aliasLookup().namesFor('cooking')).not.toBeNull();
		source.set('Notes/Cooking.md', 'Sourdough needs a starter.\n');
		await index.refresh('Notes/Cooking.md');
		expect((await search(index, 'sourdough')).results.map((h) => h.path)).toEqual(['Notes/Cooking.md']);
		source.rename('Notes/Cooking.md', 'Kitchen/Bread baking.md');
		index.rename('Notes/Cooking.md', {
			path: 'Kitchen/Bread baking.md',
			text: await source.read('Kitchen/Bread baking.md'),
			metadata: source.getMetadata('Kitchen/Bread baking.md'),
		});
		const renamed = await search(index, 'bread');
		expect(renamed.results[0]!.path).toBe('Kitchen/Bread baking.md');
		expect(renamed.results[0]!.tier).toBe('alias-filename');
		expect((await search(index, 'sourdough')).results.map((h) => h.path)).toEqual(['Kitchen/Bread baking.md']);
		// The name maps follow the rename: the new title expands, the old one is gone.
		expect(index.aliasLookup().namesFor('cooking')).toBeNull();
		expect(index.aliasLookup().namesFor('breadbaking')?.[0]!.title).toBe('Bread baking');
		source.delete('Kitchen/Bread baking.md');
		index.remove('Kitchen/Bread baking.md');
		expect((await search(index, 'sourdough')).results).toEqual([]);
		index.index.compact();
		expect((await search(index, 'xss')).results[0]!.path).toBe('Web/XSS Prevention.md');
		expect(index.size).toBe(5);
	});

	it('locates the best-matching heading section for the excerpt', async () => {
		const { index } = await build();
		const r = await search(index, 'stored attacks');
		expect(r.results[0]!.path).toBe('Web/XSS Prevention.md');
		expect(r.results[0]!.section).toBe('Details');
		expect(r.results[0]!.excerpt).toContain('stored attacks');
		expect(r.results[0]!.abstract).toMatch(/^Escape untrusted output/);
	});

	it('fills backlinks and forward links', async () => {
		const { index } = await build();
		const r = await search(index, 'content security policy');
		const csp = r.results.find((h) => h.path === 'Web/CSP.md');
		expect(csp?.backlinks).toEqual([{ path: 'Web/XSS Prevention.md', source: 'body' }]);
		const xss = r.results.find((h) => h.path === 'Web/XSS Prevention.md');
		expect(xss?.forward_links).toEqual(['CSP']);
	});
});
