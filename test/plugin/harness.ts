/** Loading the real plugin class over a fake App, as Obsidian would. */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PluginManifest } from 'obsidian';
import { afterAll } from 'vitest';
import { partKey } from '../../src/core/snapshot/index-parts';
import VaultQueryPlugin from '../../src/main';
import { databaseName, IndexedDbStore } from '../../src/obsidian/idb-store';
import { asApp, type FakeApp } from './fake-app';

/**
 * The repository root. (test/helpers/paths.ts builds it with `new URL`, which happy-dom replaces
 * with its own class that Node's fileURLToPath rejects, so the DOM tests compute it here.)
 */
export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Our example vault. */
export const EXAMPLE_VAULT = join(REPO, 'examples', 'vault');

/** The real manifest.json. */
export const MANIFEST = JSON.parse(readFileSync(join(REPO, 'manifest.json'), 'utf8')) as PluginManifest;

/** The saved search part of `app`'s vault, as IndexedDB holds it. */
export async function savedPartBytes(app: FakeApp): Promise<Uint8Array> {
	const store = new IndexedDbStore(databaseName(app.appId, app.vault.getName()));
	const bytes = await store.load(partKey('vault', 'search'));
	store.close();
	if (bytes === null) throw new Error('nothing saved');
	return bytes;
}

/** Lets pending promises and zero-delay timers run. */
export function settle(): Promise<void> {
	return new Promise((resolve) => window.setTimeout(resolve, 0));
}

/** Constructs and loads the plugin (onload is async: settings), then lets it settle. */
export async function loadPlugin(app: FakeApp, savedData?: unknown): Promise<VaultQueryPlugin> {
	const plugin = new VaultQueryPlugin(asApp(app), MANIFEST);
	loaded.push(plugin);
	if (savedData !== undefined) await plugin.saveData(savedData);
	plugin.load();
	await settle();
	return plugin;
}

/**
 * Loads and starts the plugin over `app` (its metadata cache already filled): layout-ready, then
 * its search index built or restored, brought up to date and saved. `data`: its data.json.
 */
export async function startPlugin(
	app: FakeApp,
	options: { version?: string; data?: unknown } = {},
): Promise<VaultQueryPlugin> {
	const plugin = new VaultQueryPlugin(asApp(app), { ...MANIFEST, version: options.version ?? MANIFEST.version });
	loaded.push(plugin);
	if (options.data !== undefined) await plugin.saveData(options.data);
	plugin.load();
	await settle();
	app.layoutReady();
	await plugin.engine.searchIndex();
	await plugin.engine.settled();
	await plugin.engine.savesSettled();
	return plugin;
}

/** Plugins loaded by `loadPlugin` or `startPlugin` and not yet unloaded by `unloadLoadedPlugins`. */
const loaded: VaultQueryPlugin[] = [];

/**
 * Unload every plugin `loadPlugin` loaded (unloading twice is harmless): a test that ends while a
 * plugin still builds its index must not leave it to save after the test file's window is gone.
 */
export function unloadLoadedPlugins(): void {
	for (const plugin of loaded.splice(0)) plugin.unload();
}

// Every test file that loads a plugin through this harness unloads what is left at its end (a
// hook registered while the file is collected belongs to that file): a plugin still building
// when the file ends would otherwise schedule its save after the file's window is gone. Files
// that share one plugin across their tests keep it until then; files that want a plugin per test
// call `unloadLoadedPlugins` in their own afterEach.
afterAll(() => unloadLoadedPlugins());

/** A small vault exercising every query type, a broken and two harmless `---` blocks, an attachment. */
export const SMALL_VAULT: Record<string, string> = {
	'Home.md': '---\ntags: [home]\n---\n# Home\n\nSee [[conventions]] and [[projects/alpha|Alpha]].\n',
	'conventions.md': '# Conventions\n\nHow we write rules. #process\n',
	'projects/alpha.md':
		'---\nstatus: active\nowner: "[[people/ana]]"\nlinks: [conventions]\n---\n# Alpha\n\nProject alpha follows the rules. #project/active\n![[pic.png]]\n[[missing note]]\n',
	'people/ana.md': '---\nrole: lead\n---\n# Ana\n',
	'notes/broken.md': '---\ntitle: x\ntags: [unclosed\n---\nThis body still mentions the rules and [[conventions]].\n',
	'notes/empty-yaml.md': '---\n---\nNothing but text.\n',
	'notes/comment-yaml.md': '---\n# only a comment\n\n---\nMore text.\n',
	'attachments/pic.png': 'PNG',
};
