// @vitest-environment happy-dom
import { TFile } from 'obsidian';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { NoteResult } from '../../src/core/contract';
import type { StructuredQuery } from '../../src/core/query/types';
import { INDEX_BUILDING, STILL_INDEXING } from '../../src/obsidian/index-lifecycle';
import {
	FRONTMATTER_UNPARSED,
	NOT_YET_INDEXED,
	ObsidianNoteSource,
	isBlankFrontmatterBlock,
} from '../../src/obsidian/source';
import { byWalkOrder } from '../../src/obsidian/walk-order';
import { FakeApp, asApp } from './fake-app';
import { SMALL_VAULT, loadPlugin, settle, unloadLoadedPlugins } from './harness';

afterEach(unloadLoadedPlugins);

const NOTES = Object.keys(SMALL_VAULT).filter((p) => p.endsWith('.md'));

async function paths(plugin: Awaited<ReturnType<typeof loadPlugin>>, query: StructuredQuery): Promise<string[]> {
	const result = await plugin.api.query(query);
	expect(result.status, JSON.stringify(result)).not.toBe('failed');
	return (result.results as NoteResult[]).map((r) => r.path);
}

describe('plugin commands', () => {
	it('registers one command per query type, sentence case, no hotkeys, no plugin name or "command"', async () => {
		const app = new FakeApp(SMALL_VAULT);
		await loadPlugin(app);
		const commands = Object.values(app.commands.commands);
		expect(commands.map((c) => c.id).sort()).toEqual([
			'vault-query:copy-context-pack',
			'vault-query:copy-schema-draft',
			'vault-query:filter-by-properties',
			'vault-query:find-notes-by-property',
			'vault-query:find-notes-by-tag',
			'vault-query:open-note-context',
			'vault-query:search-note-text',
			'vault-query:search-vault',
			'vault-query:show-backlinks',
			'vault-query:show-outgoing-links',
		]);
		for (const command of commands) {
			const ownName = command.name.replace(/^Vault Query: /, '');
			expect(ownName).toMatch(/^[A-Z][a-z ]+$/);
			expect(ownName.toLowerCase()).not.toContain('vault query');
			expect(`${command.id} ${ownName}`.toLowerCase()).not.toContain('command');
			expect(command.hotkeys).toBeUndefined();
			expect(typeof command.callback).toBe('function');
		}
	});
});

describe('before layout-ready', () => {
	it('finds the metadata cache empty, attaches no listener, and answers "index is still building"', async () => {
		const app = new FakeApp(SMALL_VAULT);
		const plugin = await loadPlugin(app);
		const home = app.vault.getAbstractFileByPath('Home.md');
		if (!(home instanceof TFile)) throw new Error('Home.md missing');
		expect(app.metadataCache.getFileCache(home)).toBeNull();
		for (const name of ['create', 'delete', 'rename', 'modify']) expect(app.vault.listenerCount(name)).toBe(0);
		for (const name of ['changed', 'deleted', 'resolve', 'resolved'])
			expect(app.metadataCache.listenerCount(name)).toBe(0);
		expect(plugin.api.state()).toBe('loading');
		const result = await plugin.api.query({ type: 'tag', tag: '#project' });
		expect(result).toMatchObject({
			status: 'failed',
			error: INDEX_BUILDING,
			results: [],
			matched: 0,
			query: { type: 'tag', tag: '#project' },
		});
	});

	it('a plugin unloaded before layout-ready never attaches its listeners', async () => {
		const app = new FakeApp(SMALL_VAULT);
		const plugin = await loadPlugin(app);
		plugin.unload();
		app.layoutReady();
		for (const name of ['create', 'delete', 'rename']) expect(app.vault.listenerCount(name)).toBe(0);
		for (const name of ['changed', 'deleted', 'resolve', 'resolved'])
			expect(app.metadataCache.listenerCount(name)).toBe(0);
		expect(plugin.api.state()).toBe('loading');
	});

	it('whenReady() waits through loading and indexing until the first resolved', async () => {
		const app = new FakeApp(SMALL_VAULT);
		const plugin = await loadPlugin(app);
		let ready = false;
		void plugin.api.whenReady().then(() => (ready = true));
		app.layoutReady();
		await settle();
		expect(plugin.api.state()).toBe('indexing');
		expect(ready).toBe(false);
		app.indexAll();
		await settle();
		expect(ready).toBe(true);
	});
});

describe('event order', () => {
	it('cold start: layout-ready with an empty cache → indexing (partial answers) → changed per note → resolved → ready', async () => {
		const app = new FakeApp(SMALL_VAULT);
		const plugin = await loadPlugin(app);
		app.layoutReady();
		await settle();
		expect(plugin.engine.lifecycle.state).toBe('indexing');

		const early = await plugin.api.query({ type: 'tag', tag: 'project' });
		expect(early.status).toBe('partial');
		expect(early.results).toEqual([]);
		expect(early.limitations).toContain(STILL_INDEXING);
		expect(early.skipped.map((s) => s.path).sort()).toEqual([...NOTES].sort());
		for (const s of early.skipped) expect(s.reason).toContain(NOT_YET_INDEXED);

		app.indexSome(['conventions.md', 'projects/alpha.md']);
		const half = await plugin.api.query({ type: 'tag', tag: 'project' });
		expect(half.status).toBe('partial');
		expect((half.results as NoteResult[]).map((r) => r.path)).toEqual(['projects/alpha.md']);

		app.events.length = 0;
		app.indexAll();
		const changed = app.events.filter((e) => e.startsWith('metadataCache:changed'));
		const resolvedAt = app.events.indexOf('metadataCache:resolved');
		expect(changed).toHaveLength(NOTES.length);
		expect(resolvedAt).toBe(app.events.length - 1);
		expect(app.events.findIndex((e) => e.startsWith('metadataCache:resolve '))).toBeGreaterThan(
			app.events.lastIndexOf(changed[changed.length - 1]!),
		);

		expect(plugin.engine.lifecycle.state).toBe('ready');
		expect(plugin.engine.lifecycle.history).toEqual(['layout-ready', 'indexing', 'reconciled', 'ready']);
		const done = await plugin.api.query({ type: 'tag', tag: 'project' });
		expect(done.status).toBe('partial'); // notes/broken.md: frontmatter tags could not be read
		expect(done.limitations).not.toContain(STILL_INDEXING);
		expect(done.skipped).toEqual([
			{ path: 'notes/broken.md', reason: expect.stringContaining(FRONTMATTER_UNPARSED) as unknown },
		]);
		expect((done.results as NoteResult[]).map((r) => r.path)).toEqual(['projects/alpha.md']);
	});

	it('warm start: a cache already full at layout-ready makes the index ready at once', async () => {
		const app = new FakeApp(SMALL_VAULT);
		const plugin = await loadPlugin(app);
		app.indexAll();
		app.layoutReady();
		await settle();
		expect(plugin.engine.lifecycle.history).toEqual(['layout-ready', 'ready']);
		expect(await paths(plugin, { type: 'tag', tag: 'home' })).toEqual(['Home.md']);
	});

	it('counts uncached notes after layout-ready in slices of later tasks; reading the state before the count ends finishes it at once', async () => {
		const app = new FakeApp(SMALL_VAULT);
		const plugin = await loadPlugin(app);
		app.indexAll();
		app.layoutReady();
		// The count has not run yet: the layout-ready task did not walk the notes.
		expect(plugin.engine.lifecycle.history).toEqual(['layout-ready']);
		expect(plugin.engine.lifecycle.state).toBe('ready');
		expect(plugin.engine.lifecycle.history).toEqual(['layout-ready', 'ready']);
		await settle(); // the sliced count, ending later, changes nothing
		expect(plugin.engine.lifecycle.history).toEqual(['layout-ready', 'ready']);
	});

	it('a `resolved` that arrives while the readiness count runs ends indexing', async () => {
		const app = new FakeApp(SMALL_VAULT);
		const plugin = await loadPlugin(app);
		app.layoutReady();
		app.indexAll(); // every note cached, then `resolved`, before the count's first slice
		await settle();
		expect(plugin.engine.lifecycle.state).toBe('ready');
		// `resolved` finished the count, which then saw every note cached: no `indexing` waiting for another `resolved`.
		expect(plugin.engine.lifecycle.history).toEqual(['layout-ready', 'ready']);
		expect(await paths(plugin, { type: 'tag', tag: 'home' })).toEqual(['Home.md']);
	});

	it('a `resolved` that arrives after the count saw uncached notes, before it ended, still ends indexing', async () => {
		const files: Record<string, string> = {};
		for (let i = 0; i < 1000; i++) files[`n${i}.md`] = `note ${i}`;
		const app = new FakeApp(files);
		const plugin = await loadPlugin(app);
		// Count the count's steps, to act between them.
		const { source } = plugin.engine.lifecycle;
		const unindexedSteps = source.unindexedSteps.bind(source);
		let steps = 0;
		source.unindexedSteps = function* (): Generator<void, number, void> {
			const inner = unindexedSteps();
			for (let r = inner.next(); ; r = inner.next()) {
				if (r.done === true) return r.value;
				steps++;
				yield;
			}
		};
		let clock = 0;
		const now = vi.spyOn(Date, 'now').mockImplementation(() => (clock += 100)); // every slice is used up at once
		try {
			app.layoutReady();
			while (steps < 2) await new Promise((resolve) => window.setTimeout(resolve, 0)); // the walk and the first 256 notes, uncached
			expect(plugin.engine.lifecycle.history).toEqual(['layout-ready']);
			app.indexAll();
		} finally {
			now.mockRestore();
		}
		await settle();
		expect(plugin.engine.lifecycle.state).toBe('ready');
		expect(plugin.engine.lifecycle.history).toEqual(['layout-ready', 'indexing', 'reconciled', 'ready']);
	});

	it('create events fired while the vault loads (before layout-ready) are not listened to', async () => {
		const app = new FakeApp(SMALL_VAULT);
		const plugin = await loadPlugin(app);
		const before = plugin.engine.source.revision;
		app.create('late.md', '# Late\n');
		expect(plugin.engine.source.revision).toBe(before);
	});
});

describe('keeping answers current', () => {
	async function readyPlugin(): Promise<{ app: FakeApp; plugin: Awaited<ReturnType<typeof loadPlugin>> }> {
		const app = new FakeApp(SMALL_VAULT);
		const plugin = await loadPlugin(app);
		app.layoutReady();
		app.indexAll();
		await settle();
		return { app, plugin };
	}

	it('an edit (changed) shows up in the next answer', async () => {
		const { app, plugin } = await readyPlugin();
		expect(await paths(plugin, { type: 'tag', tag: 'project' })).toEqual(['projects/alpha.md']);
		app.modify('conventions.md', '# Conventions\n\nNow part of the #project too.\n');
		expect(await paths(plugin, { type: 'tag', tag: 'project' })).toEqual(['conventions.md', 'projects/alpha.md']); // by path: no authority tiers by default
	});

	it('a created note is listed (the cached path list is invalidated)', async () => {
		const { app, plugin } = await readyPlugin();
		expect(await paths(plugin, { type: 'backlinks', target: 'conventions' })).not.toContain('ideas/new.md');
		app.create('ideas/new.md', 'Follows [[conventions]].\n');
		expect(await paths(plugin, { type: 'backlinks', target: 'conventions' })).toContain('ideas/new.md');
	});

	it('a rename (vault rename, no changed) moves the note in every answer', async () => {
		const { app, plugin } = await readyPlugin();
		expect(await paths(plugin, { type: 'backlinks', target: 'conventions' })).toContain('projects/alpha.md');
		app.events.length = 0;
		app.rename('projects/alpha.md', 'projects/alpha-renamed.md');
		expect(app.events.some((e) => e.startsWith('metadataCache:changed'))).toBe(false);
		const backlinks = await paths(plugin, { type: 'backlinks', target: 'conventions' });
		expect(backlinks).toContain('projects/alpha-renamed.md');
		expect(backlinks).not.toContain('projects/alpha.md');
		expect(await paths(plugin, { type: 'tag', tag: 'project/active' })).toEqual(['projects/alpha-renamed.md']);
	});

	it('a delete (vault delete, then deleted) removes the note', async () => {
		const { app, plugin } = await readyPlugin();
		app.events.length = 0;
		app.delete('Home.md');
		expect(app.events.slice(0, 2)).toEqual(['vault:delete Home.md', 'metadataCache:deleted Home.md']);
		expect(await paths(plugin, { type: 'backlinks', target: 'conventions' })).not.toContain('Home.md');
		const links = await plugin.api.query({ type: 'links', source: 'Home' });
		expect(links.status).toBe('failed');
		expect(links.error).toContain('Home');
	});

	it('unloading the plugin detaches every listener and command', async () => {
		const { app, plugin } = await readyPlugin();
		// The structural index and the ranked-search index each follow changes.
		expect(app.metadataCache.listenerCount('changed')).toBeGreaterThan(0);
		plugin.unload();
		for (const name of ['create', 'delete', 'rename']) expect(app.vault.listenerCount(name)).toBe(0);
		for (const name of ['changed', 'deleted', 'resolve', 'resolved'])
			expect(app.metadataCache.listenerCount(name)).toBe(0);
		expect(Object.keys(app.commands.commands)).toEqual([]);
	});
});

describe('ObsidianNoteSource', () => {
	function indexedSource(files = SMALL_VAULT, options = {}): { app: FakeApp; source: ObsidianNoteSource } {
		const app = new FakeApp(files, options);
		app.indexAll();
		return { app, source: new ObsidianNoteSource(asApp(app)) };
	}

	it('counts the notes Obsidian has not cached as steps that pause every 256 notes', () => {
		const files: Record<string, string> = {};
		for (let i = 0; i < 1000; i++) files[`n${i}.md`] = `note ${i}`;
		const app = new FakeApp(files);
		app.indexSome(['n1.md', 'n2.md']);
		const steps = new ObsidianNoteSource(asApp(app)).unindexedSteps();
		let pauses = 0;
		let r = steps.next();
		for (; r.done !== true; r = steps.next()) pauses++;
		expect(r.value).toBe(998);
		expect(pauses).toBe(1 + Math.floor(1000 / 256)); // after the walk (one step for 1,000 files), then every 256 notes
	});

	it('lists notes and files in the Node walk order, whatever order Obsidian keeps them in', () => {
		const { source } = indexedSource({ 'a/z.md': '', 'a-b.md': '', 'B.md': '', 'a/b/c.md': '', 'x.png': '' });
		expect(source.listNotes()).toEqual(['B.md', 'a/b/c.md', 'a/z.md', 'a-b.md']);
		expect(source.listFiles()).toEqual(['B.md', 'a/b/c.md', 'a/z.md', 'a-b.md', 'x.png']);
		expect(['a-b.md', 'a/z.md'].sort(byWalkOrder)).toEqual(['a/z.md', 'a-b.md']);
		const paths = ['b.md', 'a/z.md', 'a-b.md', 'a/b/c.md', 'a.md', 'A/x.md', 'a/b.md', 'é.md'];
		expect(indexedSource(Object.fromEntries(paths.map((p) => [p, '']))).source.listNotes()).toEqual(
			[...paths].sort(byWalkOrder),
		);
	});

	it('wraps vault and metadataCache: metadata, mtime, text, resolution and the link maps', async () => {
		const { app, source } = indexedSource();
		expect(source.getMetadata('Home.md')?.frontmatter).toEqual({ tags: ['home'] });
		expect(source.getMetadata('nope.md')).toBeNull();
		const home = app.vault.getAbstractFileByPath('Home.md');
		if (!(home instanceof TFile)) throw new Error('Home.md missing');
		expect(source.getMtime('Home.md')).toBe(home.stat.mtime);
		expect(source.getMtime('nope.md')).toBeNull();
		expect(await source.read('conventions.md')).toBe(SMALL_VAULT['conventions.md']);
		await expect(source.read('nope.md')).rejects.toThrow('nope.md');
		expect(source.resolveLink('pic.png', 'Home.md')).toBe('attachments/pic.png');
		expect(source.resolveLink('missing note', 'Home.md')).toBeNull();
		expect(source.resolvedLinks()['Home.md']).toEqual({ 'conventions.md': 1, 'projects/alpha.md': 1 });
		expect(source.unresolvedLinks()['projects/alpha.md']).toEqual({ 'missing note': 1 });
		expect(source.configDir).toBe(app.vault.configDir);
		expect(indexedSource(SMALL_VAULT, { configDir: '.config' }).source.configDir).toBe('.config');
		expect(source.vaultPath).toBe('Fake vault');
		expect(source.getSkipReason('Home.md')).toBeNull();
	});

	it('reports a `---` block Obsidian could not parse, but not an empty or comment-only one', async () => {
		const app = new FakeApp(SMALL_VAULT);
		app.indexAll(); // before any listener: the source never saw the texts
		const source = new ObsidianNoteSource(asApp(app));
		expect(source.getFrontmatterError('notes/broken.md')).toBe(FRONTMATTER_UNPARSED);
		expect(source.getFrontmatterError('notes/empty-yaml.md')).toBeNull();
		expect(source.getFrontmatterError('Home.md')).toBeNull();
		expect(source.getFrontmatterError('conventions.md')).toBeNull();
		// Undecidable from the cache alone until the text is read…
		expect(source.getFrontmatterError('notes/comment-yaml.md')).toBe(FRONTMATTER_UNPARSED);
		await source.learnFrontmatterBlocks();
		expect(source.getFrontmatterError('notes/comment-yaml.md')).toBeNull();
		expect(source.getFrontmatterError('notes/broken.md')).toBe(FRONTMATTER_UNPARSED);
		// …or seen in a changed event; the verdict follows renames.
		source.noteChanged('notes/broken.md', '---\n\n---\n');
		expect(source.getFrontmatterError('notes/broken.md')).toBeNull();
		app.rename('notes/broken.md', 'moved/broken.md');
		source.moved('notes', 'moved');
		expect(source.getFrontmatterError('moved/broken.md')).toBeNull();
	});

	it('recognises blank frontmatter blocks', () => {
		expect(isBlankFrontmatterBlock('---\n---\n')).toBe(true);
		expect(isBlankFrontmatterBlock('\uFEFF---\r\n  \r\n# c\r\n---\r\nx')).toBe(true);
		expect(isBlankFrontmatterBlock('---\na: [\n---\n')).toBe(false);
		expect(isBlankFrontmatterBlock('---\n# never closed\n')).toBe(false);
		expect(isBlankFrontmatterBlock('text\n---\n---\n')).toBe(false);
	});

	it('reads config-folder files through vault.adapter and YAML through Obsidian’s parseYaml', async () => {
		const { app, source } = indexedSource();
		app.vault.adapter.files.set('.obsidian/types.json', '{"types":{"status":"text"}}');
		expect(await source.readConfigFile('types.json')).toBe('{"types":{"status":"text"}}');
		expect(await source.readConfigFile('missing.json')).toBeNull();
		expect(source.parseYaml('date: 2024-07-21\nn: 3\nlist: [a, b]')).toEqual({
			date: '2024-07-21',
			n: 3,
			list: ['a', 'b'],
		});
		expect(() => source.parseYaml('a: [unclosed')).toThrow();
	});

	it('reads "Excluded files" through the untyped vault.getConfig, defensively', () => {
		expect(
			indexedSource(SMALL_VAULT, { userIgnoreFilters: ['notes/', '/^people/'] }).source.userIgnoreFilters,
		).toEqual(['notes/', '/^people/']);
		const { app, source } = indexedSource();
		expect(source.userIgnoreFilters).toEqual([]); // no getConfig at all
		app.vault.getConfig = () => 'notes/';
		expect(source.userIgnoreFilters).toEqual([]);
		app.vault.getConfig = () => ['ok/', 3, null, ''];
		expect(source.userIgnoreFilters).toEqual(['ok/']);
		app.vault.getConfig = () => {
			throw new Error('boom');
		};
		expect(source.userIgnoreFilters).toEqual([]);
	});

	it('honours "Excluded files" in answers', async () => {
		const app = new FakeApp(SMALL_VAULT, { userIgnoreFilters: ['notes/'] });
		const plugin = await loadPlugin(app);
		app.layoutReady();
		app.indexAll();
		const result = await plugin.api.query({ type: 'backlinks', target: 'conventions' });
		expect((result.results as NoteResult[]).map((r) => r.path)).not.toContain('notes/broken.md');
		expect(result.limitations.join('\n')).toContain('Excluded files: notes/');
	});

	it('caches path lists only while live, and re-lists after invalidate()', () => {
		const { app, source } = indexedSource();
		expect(source.listNotes()).not.toContain('new.md');
		app.vault.add('new.md', '');
		expect(source.listNotes()).toContain('new.md'); // not live: always fresh
		source.setLive(true);
		const listed = source.listNotes();
		app.vault.add('newer.md', '');
		expect(source.listNotes()).toBe(listed); // live: cached until an event says otherwise
		source.invalidate();
		expect(source.listNotes()).toContain('newer.md');
		// NoteSource.listNotes' contract (core caches work per list): a new array, the one handed out unchanged.
		expect(source.listNotes()).not.toBe(listed);
		expect(listed).not.toContain('newer.md');
	});
});

describe('settings and api', () => {
	it('merges data.json over the defaults, ignoring malformed values', async () => {
		const app = new FakeApp(SMALL_VAULT);
		const plugin = await loadPlugin(app, {
			defaultLimit: 5,
			linksKey: 42,
			excludedFolders: ['x/', 7],
			authorityOrder: [['a/'], ['b/']],
			unknown: true,
		});
		expect(plugin.settings.defaultLimit).toBe(5);
		expect(plugin.settings.linksKey).toBe('links');
		expect(plugin.settings.excludedFolders).toEqual([]);
		expect(plugin.settings.authorityOrder).toEqual([['a/'], ['b/']]);
		expect(plugin.settings).not.toHaveProperty('unknown');
		await plugin.saveSettings();
		expect(await plugin.loadData()).toEqual(plugin.settings);
	});

	it('returns plain JSON: mutating an answer cannot reach Obsidian’s cached frontmatter', async () => {
		const app = new FakeApp(SMALL_VAULT);
		const plugin = await loadPlugin(app);
		app.layoutReady();
		app.indexAll();
		const result = await plugin.api.query({ type: 'prop', key: 'status', value: 'active' });
		const alpha = (result.results as NoteResult[])[0]!;
		expect(alpha.frontmatter.status).toBe('active');
		alpha.frontmatter.status = 'changed';
		expect(plugin.engine.source.getMetadata('projects/alpha.md')?.frontmatter?.status).toBe('active');
	});
});
