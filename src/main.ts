import { Notice, Plugin } from 'obsidian';
import type { StructuredResult } from './core/query/run';
import type { StructuredQuery } from './core/query/types';
import { DEFAULT_SETTINGS, type EngineSettings } from './core/settings';
import { IndexLifecycle, type IndexState } from './obsidian/index-lifecycle';
import { ObsidianNoteSource } from './obsidian/source';
import { QUERY_COMMANDS, type QueryCommandSpec } from './ui/query-commands';
import { QueryPromptModal } from './ui/query-prompt';
import { ResultsModal } from './ui/results-modal';

/**
 * The plugin's public API, for other plugins and scripts:
 * `app.plugins.plugins['vault-query'].api.query({ type: 'tag', tag: 'project' })`.
 * Answers are plain JSON, exactly what `vault-query <command> --json` prints.
 */
export interface VaultQueryApi {
	/** Runs a structural query. Before Obsidian's layout is ready it answers `failed` ("index is still building"). */
	query(query: StructuredQuery): Promise<StructuredResult>;
	/** Resolves once the index is ready (Obsidian has loaded and indexed the vault). */
	whenReady(): Promise<void>;
	/** `loading`, `indexing` or `ready` (see src/obsidian/index-lifecycle.ts). */
	state(): IndexState;
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function stringList(value: unknown): string[] | null {
	if (!Array.isArray(value)) return null;
	const strings = value.filter((v): v is string => typeof v === 'string');
	return strings.length === value.length ? strings : null;
}

function wholeNumber(value: unknown, min: number): number | null {
	return typeof value === 'number' && Number.isInteger(value) && value >= min ? value : null;
}

/** The defaults, with every well-typed value from `data.json` laid over them (anything malformed is ignored). */
function mergeSettings(saved: unknown): EngineSettings {
	const s = isRecord(saved) ? saved : {};
	const tiers = Array.isArray(s.authorityOrder) ? s.authorityOrder.map(stringList).filter((t) => t !== null) : null;
	return {
		excludedFolders: stringList(s.excludedFolders) ?? [...DEFAULT_SETTINGS.excludedFolders],
		authorityOrder: tiers && Array.isArray(s.authorityOrder) && tiers.length === s.authorityOrder.length ? tiers : DEFAULT_SETTINGS.authorityOrder.map((t) => [...t]),
		linksKey: typeof s.linksKey === 'string' ? s.linksKey : DEFAULT_SETTINGS.linksKey,
		defaultLimit: wholeNumber(s.defaultLimit, 1) ?? DEFAULT_SETTINGS.defaultLimit,
		excerptChars: wholeNumber(s.excerptChars, 0) ?? DEFAULT_SETTINGS.excerptChars,
		contextLines: wholeNumber(s.contextLines, 0) ?? DEFAULT_SETTINGS.contextLines,
	};
}

/** Vault Query inside Obsidian: structural queries over MetadataCache, as commands and as an API. */
export default class VaultQueryPlugin extends Plugin {
	/** Engine settings: the defaults merged with `data.json` (a settings tab comes later). */
	override settings: EngineSettings = mergeSettings(null);
	/** The engine's port over this vault (reads nothing until asked). */
	readonly source = new ObsidianNoteSource(this.app);
	/** Readiness and event wiring; a child component from `onload` on. */
	readonly index = new IndexLifecycle(this.app, this.source);

	/** The public API (see {@link VaultQueryApi}). */
	readonly api: VaultQueryApi = {
		query: (query) => this.queryJson(query),
		whenReady: () => this.index.whenReady(),
		state: () => this.index.state,
	};

	/** Light: the lifecycle child, settings and the commands. Indexing waits for layout-ready. */
	override async onload(): Promise<void> {
		this.addChild(this.index);
		await this.loadSettings();
		for (const spec of QUERY_COMMANDS) {
			this.addCommand({ id: spec.id, name: spec.name, callback: () => this.openPrompt(spec) });
		}
	}

	/** Reads `data.json` over the defaults. */
	async loadSettings(): Promise<void> {
		this.settings = mergeSettings(await this.loadData());
	}

	/** Writes the settings to `data.json`. */
	async saveSettings(): Promise<void> {
		await this.saveData(this.settings);
	}

	/** Runs a query and returns a JSON copy, so callers can never mutate Obsidian's cached frontmatter. */
	private async queryJson(query: StructuredQuery): Promise<StructuredResult> {
		const result = await this.index.query(query, this.settings);
		return JSON.parse(JSON.stringify(result)) as StructuredResult;
	}

	private openPrompt(spec: QueryCommandSpec): void {
		const ctx = { source: this.source, activePath: this.app.workspace.getActiveFile()?.path ?? null };
		new QueryPromptModal(this.app, spec, ctx, (query) => void this.showResults(spec, query)).open();
	}

	private async showResults(spec: QueryCommandSpec, query: StructuredQuery): Promise<void> {
		try {
			const result = await this.index.query(query, this.settings);
			new ResultsModal(this.app, spec.title(query), result).open();
		} catch (error) {
			console.error('Vault Query: query failed', error);
			new Notice(`The query failed: ${error instanceof Error ? error.message : String(error)}`);
		}
	}
}
