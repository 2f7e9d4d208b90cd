// @vitest-environment happy-dom
/**
 * Issue 15 "The plugin's live index must equal a rebuild": random create/modify/rename/delete
 * sequences over the fake app — renames chained, across folders, to other extensions, into
 * excluded folders — then the plugin's live engine answers exactly as an engine built afresh over
 * the same vault: search results (with backlinks), and pack sources.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { VaultEngine } from '../../src/core/engine/engine';
import { engineConfigOf, mergeSettings } from '../../src/ui/plugin-settings';
import { FakeApp } from './fake-app';
import { loadPlugin, settle } from './harness';

const FOLDERS = ['', 'notes/', 'notes/deep/', 'private/', 'archive/'];
const NAMES = ['alpha', 'beta', 'gamma'];
const EXTENSIONS = ['.md', '.md', '.md', '.txt'];
const TEXTS = [
	'Zebra migration notes. See [[beta]].',
	'---\ntags: [zebra]\nlinks: [alpha]\n---\nStripes and savannah.',
	'# Heading\n\nZebra crossing rules, [[gamma]] and [[alpha]].',
	'Savannah weather; nothing about stripes.',
	'---\naliases: [Stripy]\n---\nZebra herds, see [[notes/alpha]].',
];
const SAVED = { excludedFolders: ['archive/'] };
const QUERIES = ['zebra', 'savannah', 'stripes', 'backlinks:alpha', 'crossing'];

type Op =
	| { kind: 'create'; folder: number; name: number; ext: number; text: number }
	| { kind: 'modify'; pick: number; text: number }
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
	fc.record({ kind: fc.constant('modify' as const), pick: fc.nat(20), text: fc.nat(TEXTS.length - 1) }),
	fc.record({
		kind: fc.constant('rename' as const),
		pick: fc.nat(20),
		folder: fc.nat(FOLDERS.length - 1),
		name: fc.nat(NAMES.length - 1),
		ext: fc.nat(EXTENSIONS.length - 1),
	}),
	fc.record({ kind: fc.constant('delete' as const), pick: fc.nat(20) }),
);

/** Apply one operation through the fake app's events (no-ops when it cannot apply, as a user could not). */
function apply(app: FakeApp, o: Op): void {
	const files = app.vault
		.getFiles()
		.map((f) => f.path)
		.sort();
	const picked = 'pick' in o && files.length > 0 ? files[o.pick % files.length] : null;
	const target = 'folder' in o ? `${FOLDERS[o.folder]}${NAMES[o.name]}${EXTENSIONS[o.ext]}` : '';
	switch (o.kind) {
		case 'create':
			if (!files.includes(target)) app.create(target, TEXTS[o.text]);
			return;
		case 'modify':
			if (picked !== null) app.modify(picked, TEXTS[o.text]);
			return;
		case 'rename':
			if (picked !== null && !files.includes(target)) app.rename(picked, target);
			return;
		case 'delete':
			if (picked !== null) app.delete(picked);
	}
}

/** What a user could compare: hits with their backlinks, and the pack's sources. */
async function answers(engine: VaultEngine): Promise<unknown> {
	const out: Record<string, unknown> = {};
	for (const q of QUERIES) {
		const r = await engine.search(q, { limit: 20 });
		out[q] =
			r.status === 'failed'
				? r.error
				: r.results.map((h) => ({ path: h.path, backlinks: h.backlinks, tags: h.tags }));
	}
	const pack = await engine.pack({ query: 'zebra stripes savannah', builtAt: '2026-01-01', budget: 4000 });
	out.pack = pack.pack.map((s) => `${s.path}#${s.section}`);
	return out;
}

describe('the plugin live index (property)', () => {
	it('after random create/modify/rename/delete sequences equals a fresh build', async () => {
		await fc.assert(
			fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 14 }), fc.boolean(), async (ops, awaitEach) => {
				const app = new FakeApp(
					{ 'notes/alpha.md': TEXTS[0], 'beta.md': TEXTS[1], 'private/gamma.md': TEXTS[2] },
					{ userIgnoreFilters: ['private/'] },
				);
				const plugin = await loadPlugin(app, SAVED);
				app.layoutReady();
				app.indexAll();
				await plugin.engine.searchIndex();
				for (const o of ops) {
					apply(app, o);
					// Events arrive faster than reads finish, or one at a time: both must end the same.
					if (awaitEach) await plugin.engine.engine.settled();
				}
				await plugin.engine.engine.settled();
				await settle();
				const fresh = new VaultEngine(plugin.engine.source, engineConfigOf(mergeSettings(SAVED)));
				expect(await answers(plugin.engine.engine)).toEqual(await answers(fresh));
				expect(plugin.engine.engine.status().indexed).toBe(
					fresh.status().indexed ?? (await fresh.searchIndex()).size,
				);
				plugin.unload();
			}),
			{ numRuns: 40 },
		);
	}, 120_000);

	it('issue 15 reproductions: chained renames, rename then delete, rename to another extension', async () => {
		const app = new FakeApp({ 'notes/d.md': TEXTS[0], 'notes/a.md': TEXTS[2] });
		const plugin = await loadPlugin(app);
		app.layoutReady();
		app.indexAll();
		await plugin.engine.searchIndex();
		const live = async (): Promise<string[]> =>
			(await plugin.engine.search('zebra', { limit: 20 })).results.map((h) => h.path).sort();
		app.delete('notes/a.md');
		app.rename('notes/d.md', 'notes/b.md');
		app.rename('notes/b.md', 'notes/a.md');
		await plugin.engine.engine.settled();
		expect(await live()).toEqual(['notes/a.md']);
		app.rename('notes/a.md', 'notes/b.md');
		app.delete('notes/b.md');
		await plugin.engine.engine.settled();
		expect(await live()).toEqual([]);
		app.create('notes/c.md', TEXTS[0]);
		app.rename('notes/c.md', 'notes/c.txt');
		await plugin.engine.engine.settled();
		expect(await live()).toEqual([]);
		plugin.unload();
	});
});
