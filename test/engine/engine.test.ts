import { describe, expect, it, vi } from 'vitest';
import { VaultEngine } from '../../src/core/engine/engine';
import { LinkState } from '../../src/core/engine/link-state';
import { MemorySource } from '../helpers/memory-source';

const NOTE = [
	'---',
	'tags: [alpha]',
	'---',
	'# Topic',
	'',
	'Intro line.',
	'',
	'## Open questions',
	'',
	'Why is the sky blue?',
	'Still open. ^q1',
	'',
	'## Done',
	'Closed.',
	'',
].join('\n');

function vault(): MemorySource {
	return new MemorySource({
		'Topic.md': NOTE,
		'notes/a.md': 'Links to [[Topic]] about zebras.\n',
		'private/secret.md': 'The zebra password is hunter2.\n',
	});
}

describe('VaultEngine answers every operation over one source', () => {
	it('runs structural queries, ranked search and packs through one object', async () => {
		const engine = new VaultEngine(vault());
		const backlinks = await engine.query({ type: 'backlinks', target: 'Topic' });
		expect(backlinks.results.map((r) => 'path' in r && r.path)).toEqual(['notes/a.md']);
		const found = await engine.search('zebras');
		expect(found.results.map((r) => r.path)).toContain('notes/a.md');
		const pack = await engine.pack({ query: 'zebras', builtAt: '2026-01-01' });
		expect(pack.status).not.toBe('failed');
		expect(pack.handoff.budget_note).toContain('default');
	});

	it('a grep that stops at its limit lists the same first notes as a full one, under tiers, sorts and folders', async () => {
		const notes: Record<string, string> = {};
		for (let i = 0; i < 12; i++)
			notes[`${['facts', 'notes', 'misc'][i % 3]}/n${11 - i}.md`] =
				`---\ntitle: T${i % 4}\n---\nA zebra line ${i}.\n`;
		notes['notes/none.md'] = 'No such animal.\n';
		for (const settings of [{}, { sort: 'title' as const }, { authorityOrder: [['facts'], ['misc']] }]) {
			for (const folders of [undefined, ['notes', 'misc']]) {
				const engine = new VaultEngine(new MemorySource(notes), { settings });
				const full = await engine.query({ type: 'grep', pattern: 'zebra', folders, limit: 50 });
				const stopped = await engine.query(
					{ type: 'grep', pattern: 'zebra', folders, limit: 3 },
					{ reuseGraph: true, stopAtLimit: true },
				);
				expect(stopped.results, JSON.stringify({ settings, folders })).toEqual(full.results.slice(0, 3));
				expect(stopped).toMatchObject({ matched: 3, more: true });
				const all = await engine.query(
					{ type: 'grep', pattern: 'zebra', folders, limit: full.matched },
					{ reuseGraph: true, stopAtLimit: true },
				);
				expect(all.results).toEqual(full.results);
				expect(all.more).toBeUndefined();
			}
		}
	});

	it('a warmed engine (the MCP server after ready) answers as a cold one, building the shared link graph before the first call', async () => {
		const queries = [
			{ type: 'backlinks', target: 'Topic' },
			{ type: 'links', source: 'notes/a' },
			{ type: 'grep', pattern: 'zebra', limit: 1 },
			{ type: 'backlinks', target: 'nowhere' },
		] as const;
		const cold = new VaultEngine(vault());
		const coldAnswers = [];
		for (const query of queries) coldAnswers.push(await cold.query(query, { reuseGraph: true, stopAtLimit: true }));
		const warm = new VaultEngine(vault());
		// Every build of the shared graph goes through LinkState.linkGraph; once the shared state holds it, queries reuse it.
		const graphs = vi.spyOn(LinkState.prototype, 'linkGraph');
		warm.warmQueries();
		expect(graphs).toHaveBeenCalledTimes(1);
		for (const [i, query] of queries.entries())
			expect(await warm.query(query, { reuseGraph: true, stopAtLimit: true })).toEqual(coldAnswers[i]);
		expect(graphs).toHaveBeenCalledTimes(1);
	});

	it('reads a note, a heading section and a block verbatim with their line ranges', async () => {
		const engine = new VaultEngine(vault());
		const whole = await engine.note({ ref: 'Topic' });
		expect(whole.results[0]).toMatchObject({ path: 'Topic.md', section: null, lines: [1, 14], total_lines: 14 });
		expect(whole.results[0]!.text).toBe(NOTE.replace(/\n$/, ''));
		const section = await engine.note({ ref: '[[Topic#Open questions]]' });
		expect(section.results[0]).toMatchObject({
			section: 'Open questions',
			lines: [8, 11],
			text: '## Open questions\n\nWhy is the sky blue?\nStill open. ^q1',
		});
		const block = await engine.note({ ref: 'Topic#^q1' });
		expect(block.results[0]).toMatchObject({ lines: [10, 11] });
		const narrowed = await engine.note({ ref: 'Topic#Open questions', from: 10, to: 10 });
		expect(narrowed.results[0]).toMatchObject({ lines: [10, 10], text: 'Why is the sky blue?' });
	});

	it('fails a note read with a reason naming the parameter', async () => {
		const engine = new VaultEngine(vault(), { settings: { excludedFolders: ['private/'] } });
		expect((await engine.note({ ref: 'Topic#Nowhere' })).error).toMatch(/^ref: no heading "Nowhere"/);
		expect((await engine.note({ ref: 'Topik' })).error).toMatch(/^ref: no note named "Topik".*"Topic"/);
		expect((await engine.note({ ref: 'Topic', from: 30 })).error).toMatch(/^from\/to: lines 30–14 lie outside/);
		expect((await engine.note({ ref: 'Topic', from: 0 })).error).toMatch(/^from: a line number/);
		expect((await engine.note({ ref: 'private/secret' })).error).toMatch(/excluded/);
	});

	it('reports what it indexed and what it left out', async () => {
		const engine = new VaultEngine(vault(), { settings: { excludedFolders: ['private/'] } });
		expect(engine.status()).toMatchObject({ notes: 3, in_scope: 2, indexed: null, search_index: 'not built' });
		await engine.searchIndex();
		expect(engine.status()).toMatchObject({ indexed: 2, search_index: 'ready' });
		expect(engine.status().exclusions.join('\n')).toContain('private/');
	});

	it('applies edits, removals and renames in order, leaving no ghost behind', async () => {
		const source = vault();
		const engine = new VaultEngine(source);
		await engine.searchIndex();
		source.rename('notes/a.md', 'notes/b.md');
		const renamed = engine.rename('notes/a.md', 'notes/b.md');
		source.delete('notes/b.md');
		const removed = engine.remove('notes/b.md');
		await Promise.all([renamed, removed]);
		const paths = (await engine.search('zebras')).results.map((r) => r.path);
		expect(paths).not.toContain('notes/a.md');
		expect(paths).not.toContain('notes/b.md');
	});

	it('answers as a fresh build right after an edit, and compacts on request (a server while idle) only once edits pile up', async () => {
		const source = vault();
		const engine = new VaultEngine(source);
		await engine.searchIndex();
		expect(await engine.foldSearchEdits()).toBe(false);
		source.set('notes/a.md', 'Links to [[Topic]] about zebras and giraffes.\n');
		await engine.upsert('notes/a.md');
		// One edit leaves the old version's postings stored but never counted: nothing to do yet.
		expect(await engine.foldSearchEdits()).toBe(false);
		const fresh = new VaultEngine(source);
		for (const q of ['zebras', 'giraffes', 'topic']) expect(await engine.search(q)).toEqual(await fresh.search(q));
		for (let round = 0; round < 40; round++) {
			source.set('notes/a.md', `Links to [[Topic]] about zebras, edit ${round}.\n`);
			await engine.upsert('notes/a.md');
		}
		expect(await engine.foldSearchEdits()).toBe(true);
		expect(await engine.foldSearchEdits()).toBe(false);
		const after = new VaultEngine(source);
		for (const q of ['zebras', 'giraffes', 'topic']) expect(await engine.search(q)).toEqual(await after.search(q));
	});
});

describe('issue 9 case 3: Excluded files are honoured on upsert', () => {
	it('keeps a note matched by Excluded files out of search after it is edited', async () => {
		const source = vault();
		source.userIgnoreFilters = ['private/'];
		const engine = new VaultEngine(source);
		expect((await engine.search('password')).results).toEqual([]);
		source.set('private/secret.md', 'The zebra password is now correcthorse.\n');
		await engine.upsert('private/secret.md');
		expect((await engine.search('password')).results).toEqual([]);
		expect(
			(await engine.pack({ query: 'zebra password', builtAt: '2026-01-01' })).pack.map((s) => s.path),
		).not.toContain('private/secret.md');
	});

	it('drops a note from search when Excluded files start to match it', async () => {
		const source = vault();
		const engine = new VaultEngine(source);
		expect((await engine.search('password')).results.map((r) => r.path)).toEqual(['private/secret.md']);
		source.userIgnoreFilters = ['/^private\\//'];
		await engine.upsert('private/secret.md');
		expect((await engine.search('password')).results).toEqual([]);
	});
});
