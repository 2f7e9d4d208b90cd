// @vitest-environment happy-dom
/**
 * The plugin's saved search index (IndexedDB, here fake-indexeddb): build and save, change the
 * vault while the plugin is closed (writes, creates, deletes, renames — Obsidian's metadata cache
 * already current when the plugin starts again, as in Obsidian), then restore and reconcile:
 * every search answer and pack equals a fresh build's, and the index was restored, not rebuilt.
 */
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { VaultEngine } from '../../src/core/engine/engine';
import { SearchIndex } from '../../src/core/search/search-index';
import { engineConfigOf, mergeSettings } from '../../src/ui/plugin-settings';
import { FakeApp } from './fake-app';
import { loadPlugin, settle } from './harness';
import type VaultQueryPlugin from '../../src/main';

const FOLDERS = ['', 'notes/', 'notes/deep/', 'archive/'];
const NAMES = ['alpha', 'beta', 'gamma', 'delta'];
const EXTENSIONS = ['.md', '.md', '.md', '.txt'];
const TEXTS = [
	'Zebra migration notes. See [[beta]].',
	'---\ntags: [zebra]\nlinks: [alpha]\n---\nStripes and savannah.',
	'# Heading\n\nZebra crossing rules, [[gamma]] and [[alpha]].',
	'Savannah weather; nothing about stripes.',
	'---\naliases: [Stripy]\n---\nZebra herds, see [[notes/alpha]].',
	'Savannah weather; nothing about zebras.', // the same size as another text: only the mtime tells them apart
];
const SAVED = { excludedFolders: ['archive/'] };
const QUERIES = ['zebra', 'savannah', 'stripes', 'backlinks:alpha', 'crossing', 'stripy', 'weather'];
/** Files older than the racy window, as a vault's files are when Obsidian starts. */
const OLD = Date.parse('2026-01-01T00:00:00Z');

type Op =
	| { kind: 'create'; folder: number; name: number; ext: number; text: number }
	| { kind: 'write'; pick: number; text: number }
	| { kind: 'rename'; pick: number; folder: number; name: number; ext: number }
	| { kind: 'delete'; pick: number };

const op: fc.Arbitrary<Op> = fc.oneof(
	fc.record({
		kind: fc.constant('create' as const),
		folder: fc.nat(FOLDERS.length - 1),
		name: fc.nat(NAMES.length - 1),
		ext: fc.nat(EXTENSIONS.length - 1),
		text: fc.nat(TEXTS.length - 1),
	}),
	fc.record({ kind: fc.constant('write' as const), pick: fc.nat(20), text: fc.nat(TEXTS.length - 1) }),
	fc.record({
		kind: fc.constant('rename' as const),
		pick: fc.nat(20),
		folder: fc.nat(FOLDERS.length - 1),
		name: fc.nat(NAMES.length - 1),
		ext: fc.nat(EXTENSIONS.length - 1),
	}),
	fc.record({ kind: fc.constant('delete' as const), pick: fc.nat(20) }),
);

/** One change made while the plugin is closed: the file and Obsidian's cache change, no event reaches a plugin. */
function applyClosed(app: FakeApp, o: Op): void {
	const files = app.vault
		.getFiles()
		.map((f) => f.path)
		.sort();
	const picked = 'pick' in o && files.length > 0 ? files[o.pick % files.length] : null;
	const target = 'folder' in o ? `${FOLDERS[o.folder]}${NAMES[o.name]}${EXTENSIONS[o.ext]}` : '';
	const isNote = (path: string): boolean => path.endsWith('.md');
	switch (o.kind) {
		case 'create':
			if (files.includes(target)) return;
			app.vault.add(target, TEXTS[o.text]);
			if (isNote(target)) app.metadataCache.parse(target, TEXTS[o.text]);
			break;
		case 'write':
			if (picked === null) return;
			app.vault.setText(picked, TEXTS[o.text]);
			if (isNote(picked)) app.metadataCache.parse(picked, TEXTS[o.text]);
			break;
		case 'rename':
			if (picked === null || files.includes(target)) return;
			app.vault.move(picked, target);
			app.metadataCache.drop(picked);
			if (isNote(target)) app.metadataCache.parse(target, app.vault.textOf(target) ?? '');
			break;
		case 'delete':
			if (picked === null) return;
			app.vault.remove(picked);
			app.metadataCache.drop(picked);
	}
	app.metadataCache.relink();
}

/** What a user could compare: hits with their backlinks and tags, and a pack's sources. */
async function answers(search: (q: string) => Promise<unknown>, pack: () => Promise<unknown>): Promise<unknown> {
	const out: Record<string, unknown> = {};
	for (const q of QUERIES) out[q] = await search(q);
	out.pack = await pack();
	return out;
}

/** The plugin's answers (through PluginEngine, as every face asks). */
function pluginAnswers(plugin: VaultQueryPlugin): Promise<unknown> {
	return answers(
		async (q) => {
			const r = await plugin.engine.search(q, { limit: 20 });
			return r.status === 'failed'
				? r.error
				: r.results.map((h) => ({ path: h.path, backlinks: h.backlinks, tags: h.tags }));
		},
		async () =>
			(
				await plugin.engine.pack({ query: 'zebra stripes savannah', builtAt: '2026-01-01', budget: 4000 })
			).pack.map((s) => `${s.path}#${s.section}`),
	);
}

/** The same answers from an engine built afresh over the plugin's source. */
function freshAnswers(plugin: VaultQueryPlugin): Promise<unknown> {
	const fresh = new VaultEngine(plugin.engine.source, engineConfigOf(mergeSettings(SAVED)));
	return answers(
		async (q) => {
			const r = await fresh.search(q, { limit: 20 });
			return r.status === 'failed'
				? r.error
				: r.results.map((h) => ({ path: h.path, backlinks: h.backlinks, tags: h.tags }));
		},
		async () =>
			(await fresh.pack({ query: 'zebra stripes savannah', builtAt: '2026-01-01', budget: 4000 })).pack.map(
				(s) => `${s.path}#${s.section}`,
			),
	);
}

/** Starts the plugin as Obsidian does on a vault it has opened before: the metadata cache is already filled. */
export async function startPlugin(app: FakeApp): Promise<VaultQueryPlugin> {
	const plugin = await loadPlugin(app, SAVED);
	app.layoutReady();
	await plugin.engine.searchIndex();
	await plugin.engine.settled();
	return plugin;
}

/** A vault of old files (outside the racy window), its metadata cache filled. */
export function oldVault(): FakeApp {
	const files = {
		'notes/alpha.md': TEXTS[0],
		'beta.md': TEXTS[1],
		'notes/deep/gamma.md': TEXTS[2],
		'archive/delta.md': TEXTS[4],
		'weather.md': TEXTS[3],
	};
	const app = new FakeApp(files, {
		mtimes: Object.fromEntries(Object.keys(files).map((p, i) => [p, OLD + i * 1000])),
	});
	app.indexAll();
	return app;
}

describe('the plugin saved index (property)', () => {
	it('after random writes, creates, deletes and renames while closed, the restored and reconciled index answers as a fresh build', async () => {
		const build = vi.spyOn(SearchIndex, 'build');
		await fc.assert(
			fc.asyncProperty(fc.array(op, { minLength: 0, maxLength: 12 }), async (ops) => {
				const app = oldVault();
				const first = await startPlugin(app);
				await first.engine.savesSettled();
				expect(first.engine.saved?.log).toContain(`saved (${app.vault.getMarkdownFiles().length} notes)`);
				first.unload();
				for (const o of ops) applyClosed(app, o);
				build.mockClear();
				const second = await startPlugin(app);
				expect(build).not.toHaveBeenCalled(); // restored, not rebuilt
				expect(second.engine.saved?.log.some((l) => l.startsWith('restored ('))).toBe(true);
				expect(await pluginAnswers(second)).toEqual(await freshAnswers(second));
				await settle();
				second.unload();
			}),
			{ numRuns: 40 },
		);
		build.mockRestore();
	}, 120_000);
});
