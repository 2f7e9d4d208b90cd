/** Loading the real plugin over a {@link UiApp}, ready to search (happy-dom tests). */
import { afterEach } from 'vitest';
import type VaultQueryPlugin from '../../src/main';
import { EXAMPLE_VAULT, loadPlugin, settle } from '../plugin/harness';
import { appFromSnapshot, UiApp, type VaultSnapshot } from './ui-app';
import { readVault } from './vault-snapshot';

/** A loaded plugin on a ready, indexed app whose search index is built. */
export interface Ready {
	app: UiApp;
	plugin: VaultQueryPlugin;
}

let example: VaultSnapshot | null = null;

/** What each test loaded: closed and unloaded after it, so no timer outlives the test's DOM. */
const loaded: Ready[] = [];

afterEach(async () => {
	for (const { app, plugin } of loaded.splice(0)) {
		for (const leaf of [...app.workspace.leaves]) leaf.detach();
		plugin.unload();
	}
	await settle();
});

/** The example vault, read once per test file. */
export function exampleVault(): VaultSnapshot {
	example ??= readVault(EXAMPLE_VAULT);
	return example;
}

/** Loads the plugin over `files` (default: the example vault), layout ready, every note indexed, search index built. */
export async function ready(files?: Record<string, string>, saved?: unknown): Promise<Ready> {
	const app = files === undefined ? appFromSnapshot(exampleVault()) : new UiApp(files, { name: 'small' });
	const plugin = await loadPlugin(app, saved);
	app.layoutReady();
	app.indexAll();
	await settle();
	await plugin.engine.searchIndex();
	const r = { app, plugin };
	loaded.push(r);
	return r;
}

/** Elements' text. */
export function texts(root: ParentNode, selector: string): string[] {
	return [...root.querySelectorAll(selector)].map((el) => el.textContent ?? '');
}
