import { Plugin } from 'obsidian';
import { createApi, type VaultQueryApi } from './obsidian/api';
import { cliHost, registerCliHandlers } from './obsidian/cli-handlers';
import { PluginEngine } from './obsidian/plugin-engine';
import { registerContextPackView } from './ui/bases-view';
import { blockProcessor, CODE_BLOCK_LANGUAGE } from './ui/code-block';
import { copyPack, runCopyPackCommand, type CopyPackContext } from './ui/copy-pack';
import { copySchemaDraft } from './ui/copy-schema-draft';
import { FilterModal } from './ui/filter-modal';
import { facesHost, type FacesHost } from './ui/host';
import { resolveConfig } from './core/config/resolve';
import { engineConfigOf, mergeSettings, type PluginSettings } from './ui/plugin-settings';
import { QUERY_COMMANDS, type QueryCommandSpec } from './ui/query-commands';
import type { StructuredQuery } from './core/query/types';
import { QueryPromptModal } from './ui/query-prompt';
import { showQueryResults } from './ui/results-modal';
import { SearchModal } from './ui/search-modal';
import { indexHost, type SettingsHost } from './ui/settings-rows';
import { VaultQuerySettingTab } from './ui/settings-tab';
import { openSidePanel, SIDE_PANEL_VIEW, SidePanelView } from './ui/side-panel';

export type { ApiSearchOptions, ReaderOptions, VaultQueryApi } from './obsidian/api';
export type { PluginSettings } from './ui/plugin-settings';

/** A palette command: id, name (sentence case), what it runs. */
type Command = [id: string, name: string, run: () => void];

/** Vault Query inside Obsidian: Obsidian wiring only — the engine, its gate and the API live in src/obsidian. */
export default class VaultQueryPlugin extends Plugin {
	/** The settings: the defaults merged with `data.json`, edited in the settings tab. */
	override settings: PluginSettings = mergeSettings(null);
	/** The engine over this vault, kept current from vault events and gated on readiness. */
	readonly engine = new PluginEngine(this.app, () => engineConfigOf(this.settings), this.manifest);
	/** The public API (see {@link VaultQueryApi}). */
	readonly api: VaultQueryApi = createApi(this.engine);
	/** What the faces (modal, side panel, code blocks) may call: a narrow port, not the plugin. */
	readonly faces: FacesHost = facesHost(this.app, this.engine, () => this.settings);

	/** What the settings tab may read and do. On save the engine decides whether the change shapes the search index (its rebuild waits for typing to stop). */
	private readonly settingsHost: SettingsHost = {
		settings: () => this.settings,
		save: () => {
			void this.saveSettings();
			this.engine.applySettings();
		},
		rebuild: () => this.engine.rebuild().then(() => undefined),
		redisplay: () => this.settingTab.redraw(),
		...indexHost(this.engine),
	};

	/** The settings tab, redrawn when a profile or a synced change rewrites several rows. */
	private readonly settingTab = new VaultQuerySettingTab(this.app, this, this.settingsHost);

	/** Light: the engine child, settings and the commands. Indexing waits for layout-ready. */
	override async onload(): Promise<void> {
		await this.loadSettings();
		this.addChild(this.engine);
		const draft = { draft: () => this.engine.schemaDraft(), schemaPath: () => this.settings.schemaPath };
		const commands: Command[] = [
			...QUERY_COMMANDS.map((spec): Command => [spec.id, spec.name, () => this.openPrompt(spec)]),
			['filter-by-properties', 'Filter notes by properties', () => this.openFilter()],
			['copy-context-pack', 'Copy context pack', () => runCopyPackCommand(this.packContext())],
			['copy-schema-draft', 'Copy schema draft', () => void copySchemaDraft(draft)],
			['search-vault', 'Search vault', () => this.openSearch()],
			['open-note-context', 'Open note context panel', () => void openSidePanel(this.app)],
		];
		for (const [id, name, callback] of commands) this.addCommand({ id, name, callback });
		this.registerView(SIDE_PANEL_VIEW, (leaf) => new SidePanelView(leaf, this.faces));
		this.addRibbonIcon('list-tree', 'Open note context', () => void openSidePanel(this.app));
		this.addSettingTab(this.settingTab);
		this.registerMarkdownCodeBlockProcessor(CODE_BLOCK_LANGUAGE, blockProcessor(this.faces));
		registerContextPackView(this, this.faces);
		registerCliHandlers(this, cliHost(this.api, this.engine));
	}

	/** Reads `data.json` over the defaults and the profile it names (as the CLI does); true when that changes the search index. */
	async loadSettings(): Promise<boolean> {
		this.settings = resolveConfig({ saved: { value: await this.loadData(), label: 'data.json' } }).settings;
		return this.engine.applySettings();
	}

	/** `data.json` changed outside this app (Obsidian Sync, another device): read it again, rebuild what it shapes, redraw the tab. */
	override async onExternalSettingsChange(): Promise<void> {
		await this.loadSettings();
		this.settingTab.redraw();
	}

	/** Writes the settings (`settings` is always `this.settings`, possibly just changed) to `data.json`. */
	async saveSettings(settings: PluginSettings = this.settings): Promise<void> {
		await this.saveData(settings);
	}

	private packContext(): CopyPackContext {
		return {
			app: this.app,
			budget: () => this.settings.packBudget,
			pack: (request) => this.engine.pack(request),
			indexReady: () => this.engine.searchReady,
		};
	}

	private openSearch(): void {
		const selection = this.app.workspace.activeEditor?.editor?.getSelection().trim() ?? '';
		const actions = { copyPack: (query: string) => void copyPack(this.packContext(), query) };
		new SearchModal(this.app, this.faces, actions, selection.includes('\n') ? '' : selection).open();
	}

	private openFilter(): void {
		const remember = (text: string): void =>
			void this.saveSettings(Object.assign(this.settings, { lastFilter: text }));
		new FilterModal(this.app, (request) => this.engine.read(request), this.settings.lastFilter, remember).open();
	}

	private openPrompt(spec: QueryCommandSpec): void {
		const ctx = { source: this.engine.source, activePath: this.app.workspace.getActiveFile()?.path ?? null };
		const show = (q: StructuredQuery): void => void showQueryResults(this.app, spec.title(q), this.engine.query(q));
		new QueryPromptModal(this.app, spec, ctx, show).open();
	}
}
