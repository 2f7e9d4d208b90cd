/**
 * The browser harness: the real plugin (src/main.ts) on the stub's DOM and the fake app's
 * workspace, over the example vault's files (vault.js, read from the folder by the test — the
 * harness never writes anywhere). The end-to-end tests drive it through `window.harness` and the keyboard.
 */
import type { App } from 'obsidian';
import manifest from '../../../manifest.json';
import { SearchIndex } from '../../../src/core/search/search-index';
import VaultQueryPlugin from '../../../src/main';
import { indexWorkers } from '../../../src/obsidian/worker-host';
import { MarkdownPreviewRenderer } from '../../obsidian-stub/index';
import { appFromSnapshot, type UiApp, type VaultSnapshot } from '../../ui/ui-app';

/** What the tests reach through `window.harness`. */
export interface Harness {
	app: UiApp;
	plugin: VaultQueryPlugin;
	/** Runs a palette command by id. */
	command(id: string): boolean;
	/** Opens a note in the main area. */
	openNote(path: string): Promise<void>;
	/** Shows `sources` as `vault-query` blocks in a note view, as Obsidian's reading view would. */
	renderBlocks(sources: string[], sourcePath: string): Promise<void>;
	/** Opens the plugin's settings tab in a settings dialog. */
	openSettings(): void;
	/** `theme-light` or `theme-dark` on the body. */
	setTheme(theme: 'light' | 'dark'): void;
	/** How many ranked-search indexes were built from the notes on the page's main thread since it loaded (a restored one, or one built in the worker, is not). */
	builds(): number;
	/** The index worker's code and factory (a test sets `code` to null to build on the main thread). */
	indexWorkers: typeof indexWorkers;
}

/** Builds of the ranked-search index on this page, counted around the real build. */
let builds = 0;
const build = SearchIndex.build.bind(SearchIndex);
SearchIndex.build = (...args: Parameters<typeof SearchIndex.build>): ReturnType<typeof SearchIndex.build> => {
	builds++;
	return build(...args);
};

declare global {
	interface Window {
		harness?: Harness;
		/** The example vault, set by vault.js (written by the test from the folder). */
		vaultSnapshot?: VaultSnapshot;
	}
}

function settle(): Promise<void> {
	return new Promise((resolve) => window.setTimeout(resolve, 0));
}

async function start(): Promise<void> {
	const snapshot = window.vaultSnapshot;
	if (!snapshot) throw new Error('vault.js did not load');
	// One id for the vault across reloads, as Obsidian keeps it: the page's saved index is found again.
	const app = appFromSnapshot(snapshot, 'e2e-example-vault');
	const plugin = new VaultQueryPlugin(app as unknown as App, manifest);
	// What Obsidian loads from examples/vault/.obsidian/plugins/vault-query/data.json: the team-folders profile.
	await plugin.saveData({ profile: 'team-folders' });
	plugin.load();
	await settle();
	app.layoutReady();
	app.indexAll();
	await plugin.engine.searchIndex();
	await plugin.engine.settled();
	window.harness = {
		builds: () => builds,
		indexWorkers,
		app,
		plugin,
		command: (id) => app.commands.executeCommandById(id),
		openNote: (path) => app.openNote(path),
		renderBlocks: async (sources, sourcePath) => {
			await app.openNote(sourcePath);
			const view = document.body.querySelector('.mod-root .markdown-reading-view');
			if (!view) throw new Error('no note view');
			view.empty();
			view.createEl('h1', { cls: 'inline-title', text: 'Dashboard' });
			for (const source of sources) {
				view.createEl('pre').createEl('code', { cls: 'language-vault-query', text: `${source}\n` });
			}
			const ctx = {
				docId: 'harness',
				sourcePath,
				frontmatter: null,
				addChild: (child: { load(): void }) => child.load(),
				getSectionInfo: () => null,
			};
			for (const processor of MarkdownPreviewRenderer.postProcessors) await processor(view as HTMLElement, ctx);
		},
		openSettings: () => {
			const tab = app.setting.tabs[0]!;
			const modal = document.body.createDiv('modal-container mod-dim');
			modal.createDiv('modal-bg');
			const dialog = modal.createDiv('modal mod-settings');
			dialog.createDiv({ cls: 'modal-title', text: 'Vault Query' });
			app.setting.open(tab, dialog.createDiv('vertical-tab-content-container'));
		},
		setTheme: (theme) => {
			document.body.toggleClass('theme-light', theme === 'light');
			document.body.toggleClass('theme-dark', theme === 'dark');
		},
	};
	document.body.setAttr('data-ready', 'true');
}

void start();
