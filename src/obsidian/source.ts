import { TFile, normalizePath, parseYaml, type App, type CachedMetadata as ObsidianCachedMetadata } from 'obsidian';
import type { CachedMetadata, LinkMap } from '../core/metadata';
import type { NoteSource } from '../core/port';
import { TimeSlice, drain } from '../core/steps';
import { LinkSourceIndex } from './link-sources';
import { MainThreadTurns } from './next-task';
import { filesInWalkOrderSteps } from './walk-order';

/**
 * The engine's port over a running Obsidian: `app.vault` for files and text, `app.metadataCache`
 * for metadata, link resolution and the link maps. The engine is stateless over this port, so
 * Obsidian's MetadataCache *is* the index; this adapter only caches the path lists, and only
 * while an {@link IndexLifecycle} keeps them current from vault events (`setLive`).
 */

/** Reported for a Markdown file Obsidian has not parsed yet (cold start, or just created). */
export const NOT_YET_INDEXED = 'not yet indexed by Obsidian (its metadata cache is still being built)';

/** Reported for a note whose `---` block Obsidian could not turn into properties. */
export const FRONTMATTER_UNPARSED = 'Obsidian found a --- block but no properties in it';

/** `Vault#getConfig` exists at runtime but is not in the public typings. */
interface VaultWithConfig {
	getConfig(key: string): unknown;
}

function hasGetConfig(vault: object): vault is VaultWithConfig {
	return 'getConfig' in vault && typeof vault.getConfig === 'function';
}

/** Whether a file is a Markdown note. */
function isNote(file: TFile): boolean {
	return file.extension === 'md';
}

/** The readiness count pauses every 256 notes (a power of two, less one, as a mask). */
const COUNT_STEP_MASK = 255;

/** Milliseconds of the frontmatter pass between yields to the main thread. */
const LEARN_SLICE_MS = 10; // why: under a 16 ms frame, like the index build's slices.

/** Milliseconds of the link maps' inversion between yields to the main thread. */
const LINKS_SLICE_MS = 10; // why: under a 16 ms frame, like the index build's slices.

/**
 * True when the text's leading `---` block holds nothing YAML would turn into a value (only blank
 * lines or comments): Obsidian then has no frontmatter, and that is not an error.
 */
export function isBlankFrontmatterBlock(text: string): boolean {
	const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
	if (lines[0] !== '---') return false;
	for (let i = 1; i < lines.length; i++) {
		const line = lines[i]!;
		if (line === '---') return true;
		const trimmed = line.trim();
		if (trimmed !== '' && !trimmed.startsWith('#')) return false;
	}
	return false;
}

/** {@link NoteSource} implemented with `app.vault` and `app.metadataCache`. */
export class ObsidianNoteSource implements NoteSource {
	private notes: string[] | null = null;
	private files: string[] | null = null;
	/** The notes as `TFile`s in walk order, while live (see {@link markdownFileSteps}). */
	private markdown: readonly TFile[] | null = null;
	/** Bumped whenever the file lists are dropped: a list made across that is not kept. */
	private listings = 0;
	private live = false;
	private generation = 0;
	/** Notes whose leading `---` block we saw to be blank (from `changed` events' file text). */
	private readonly blankYaml = new Set<string>();
	/** `resolvedLinks` inverted, kept current from `resolve` events while live. */
	private readonly linkIndex = new LinkSourceIndex();
	/** The inversion running in idle turns, if any. */
	private inverting: Promise<void> | null = null;
	/**
	 * What the inversion waits for before it starts: the plugin's index work (a restore's reconcile,
	 * a build), which a search's answer waits on; the inversion only speeds up later searches.
	 */
	beforeInverting: () => Promise<void> = () => Promise.resolve();

	/** The turns this plugin's background jobs take on the main thread (next-task.ts). */
	readonly turns = new MainThreadTurns();

	/** Wraps the app; nothing is read until the engine asks. */
	constructor(private readonly app: App) {}

	/** The vault's name: inside Obsidian there is no portable absolute path (mobile has none). */
	get vaultPath(): string {
		return this.app.vault.getName();
	}

	/** `Vault#configDir` (never assume `.obsidian`). */
	get configDir(): string {
		return this.app.vault.configDir;
	}

	/** The user's "Excluded files" (`userIgnoreFilters`), read on each call so edits apply at once. */
	get userIgnoreFilters(): readonly string[] {
		const vault: object = this.app.vault;
		if (!hasGetConfig(vault)) return [];
		let value: unknown;
		try {
			value = vault.getConfig('userIgnoreFilters');
		} catch {
			return [];
		}
		return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v !== '') : [];
	}

	/** Bumped on every change the lifecycle reports; lets callers cache derived data. */
	get revision(): number {
		return this.generation;
	}

	/**
	 * Turns path-list caching on (`true`: someone now invalidates on vault events) or off (every
	 * call lists afresh). Off by default, so the source is correct even without a lifecycle.
	 */
	setLive(live: boolean): void {
		this.live = live;
		this.invalidate();
	}

	/** Drops cached path lists (vault create/delete/rename) and bumps {@link revision}. */
	invalidate(): void {
		this.notes = null;
		this.files = null;
		this.markdown = null;
		this.listings++;
		this.generation++;
		this.linkIndex.markPartial();
	}

	/** Obsidian resolved the file's links again (`resolve`): its entry of the inverted link map follows. */
	linksResolved(path: string): void {
		this.linkIndex.update(path, this.app.metadataCache.resolvedLinks[path]);
	}

	/** The files whose `resolvedLinks` entry names `target` (any order), when {@link linkSourcesReady}. */
	linkSourcesOf(target: string): readonly string[] {
		return this.linkIndex.sourcesOf(target);
	}

	/**
	 * Whether {@link linkSourcesOf} answers for the whole vault now. When it does not (the first ask,
	 * or a note came, went or was renamed since), the inversion is started in idle turns and the
	 * caller walks the link maps this once. Never while not live: no events would keep it current.
	 */
	linkSourcesReady(): boolean {
		if (this.linkIndex.whole) return true;
		void this.linkSourcesInverted();
		return false;
	}

	/** Start the inversion {@link linkSourcesReady} starts (or join it); resolves with whether it is now whole. */
	async linkSourcesInverted(): Promise<boolean> {
		if (!this.linkIndex.whole && this.live) await (this.inverting ??= this.invertLinks());
		return this.linkIndex.whole;
	}

	/** Invert `resolvedLinks` in idle turns (behind every other job of ours). */
	private async invertLinks(): Promise<void> {
		try {
			await this.beforeInverting();
			const slice = new TimeSlice(LINKS_SLICE_MS, this.turns.nextIdle, Date.now);
			await slice.pause();
			await slice.run(this.linkIndex.rebuildSteps(this.app.metadataCache.resolvedLinks));
		} finally {
			this.inverting = null;
		}
	}

	/** A note's metadata changed: bump {@link revision}, and remember whether its `---` block is blank. */
	noteChanged(path: string, text: string): void {
		if (isBlankFrontmatterBlock(text)) this.blankYaml.add(path);
		else this.blankYaml.delete(path);
		this.generation++;
	}

	/** A file or folder was deleted: forget what we remembered about it (and, for a folder, inside it). */
	forget(path: string): void {
		const inside = `${path}/`;
		for (const known of [...this.blankYaml]) {
			if (known === path || known.startsWith(inside)) this.blankYaml.delete(known);
		}
	}

	/** A file or folder was renamed (Obsidian sends no `changed` then): carry what we knew along. */
	moved(oldPath: string, newPath: string): void {
		const inside = `${oldPath}/`;
		for (const known of [...this.blankYaml]) {
			if (known === oldPath) {
				this.blankYaml.delete(known);
				this.blankYaml.add(newPath);
			} else if (known.startsWith(inside)) {
				this.blankYaml.delete(known);
				this.blankYaml.add(`${newPath}/${known.slice(inside.length)}`);
			}
		}
	}

	/** Every Markdown note, in walk order (walk-order.ts). */
	listNotes(): readonly string[] {
		if (this.notes && this.live) return this.notes;
		return this.keepNotes(drain(this.markdownFileSteps()), this.listings);
	}

	/**
	 * Make the note list ahead of {@link listNotes}, in `slice`'s time slices (at 50k notes the
	 * walk takes ~0.1 s, too long for one block of the main thread). Kept only when the source is
	 * live and no file was created, deleted or renamed meanwhile; otherwise listNotes walks again.
	 */
	async prepareNotes(slice: TimeSlice): Promise<void> {
		if (this.notes && this.live) return;
		// Each part starts a task of its own: the caller's (layout-ready, a command) has other work.
		await slice.pause();
		const listings = this.listings;
		const files = await slice.run(this.markdownFileSteps());
		await slice.pauseIfUsed();
		this.keepNotes(files, listings);
		await slice.pause();
	}

	/** The notes' paths, kept as the note list when nothing was listed anew since `listings`. */
	private keepNotes(files: readonly TFile[], listings: number): string[] {
		const notes = files.map((f) => f.path);
		if (this.live && this.listings === listings) this.notes = notes;
		return notes;
	}

	/** Every file (notes and attachments), in walk order. */
	listFiles(): readonly string[] {
		if (this.files && this.live) return this.files;
		const files = drain(filesInWalkOrderSteps(this.app.vault.getRoot(), () => true)).map((f) => f.path);
		if (this.live) this.files = files;
		return files;
	}

	/**
	 * Every Markdown note as Obsidian's `TFile`, in walk order, as steps (walk-order.ts). While
	 * live, walked once until a file is created, deleted or renamed: the start's readiness count,
	 * frontmatter pass and note list share one walk.
	 */
	*markdownFileSteps(): Generator<void, readonly TFile[], void> {
		if (this.markdown && this.live) return this.markdown;
		const listings = this.listings;
		const files = yield* filesInWalkOrderSteps(this.app.vault.getRoot(), isNote);
		if (this.live && this.listings === listings) this.markdown = files;
		return files;
	}

	/** Obsidian's cached metadata for the note (null until Obsidian has parsed it). */
	getMetadata(path: string): CachedMetadata | null {
		const file = this.file(path);
		if (!file) return null;
		const cache: ObsidianCachedMetadata | null = this.app.metadataCache.getFileCache(file);
		return cache;
	}

	/**
	 * Reads the few notes whose `---` block Obsidian left without frontmatter and whose text we
	 * have not seen in a `changed` event (they were cached before our listeners existed), to tell
	 * blank blocks from broken ones. Called once at layout-ready; runs in the background.
	 */
	async learnFrontmatterBlocks(): Promise<void> {
		// Behind every other job of ours: at a restart the saved index's restore and the first answer come first.
		const slice = new TimeSlice(LEARN_SLICE_MS, this.turns.nextIdle, Date.now);
		const files = await slice.run(this.markdownFileSteps());
		for (const file of files) {
			// A pass over every note: yield now and then, so 50k notes never hold the main thread.
			if (slice.used()) {
				await slice.pause();
				if (!this.live) return; // Unloaded meanwhile: nothing left to learn for.
			}
			if (!this.yamlVerdictNeeded(file.path, this.app.metadataCache.getFileCache(file))) continue; // the file in hand: no lookup by path
			try {
				const text = await this.app.vault.cachedRead(file);
				if (isBlankFrontmatterBlock(text)) this.blankYaml.add(file.path);
			} catch {
				// Unreadable now: the note keeps being reported as unparsed, which is the safe side.
			}
		}
	}

	/** True when the note has a multi-line `---` block without frontmatter and we do not know it is blank. */
	private yamlVerdictNeeded(path: string, cache: CachedMetadata | null = this.getMetadata(path)): boolean {
		const first = cache?.sections?.[0];
		if (!cache || !first || first.type !== 'yaml' || cache.frontmatter !== undefined) return false;
		if (first.position.end.line - first.position.start.line <= 1) return false;
		return !this.blankYaml.has(path);
	}

	/**
	 * Obsidian does not expose YAML errors. A leading `yaml` section without `frontmatter` means the
	 * block did not parse to an object — unless the block is blank (`---\n---`, or only comments),
	 * which we know from its span, from the text of the note's last `changed` event, or from
	 * {@link learnFrontmatterBlocks}.
	 */
	getFrontmatterError(path: string): string | null {
		return this.yamlVerdictNeeded(path) ? FRONTMATTER_UNPARSED : null;
	}

	/** A Markdown note Obsidian has not parsed yet is skipped with {@link NOT_YET_INDEXED}. */
	getSkipReason(path: string): string | null {
		const file = this.file(path);
		if (!file || file.extension !== 'md') return null;
		return this.app.metadataCache.getFileCache(file) === null ? NOT_YET_INDEXED : null;
	}

	/** `TFile.stat`: size, ctime and mtime, for bases. */
	fileStat(path: string): { size: number; ctime: number; mtime: number } | null {
		const stat = this.file(path)?.stat;
		return stat ? { size: stat.size, ctime: stat.ctime, mtime: stat.mtime } : null;
	}

	/** `TFile.stat.mtime`. */
	getMtime(path: string): number | null {
		return this.file(path)?.stat.mtime ?? null;
	}

	/** `TFile.stat` (size, mtime, ctime), or null when no such file: what the saved index compares. */
	statOf(path: string): { size: number; mtime: number; ctime: number } | null {
		return this.file(path)?.stat ?? null;
	}

	/** `Vault#cachedRead`: the note's full text (frontmatter included). */
	async read(path: string): Promise<string> {
		const file = this.file(path);
		if (!file) throw new Error(`No such file in the vault: ${path}`);
		return this.app.vault.cachedRead(file);
	}

	/** `Vault#readBinary`: the note's bytes, for the index worker to decode (see worker-protocol.ts's PostedNote). */
	async readBinary(path: string): Promise<ArrayBuffer> {
		const file = this.file(path);
		if (!file) throw new Error(`No such file in the vault: ${path}`);
		return this.app.vault.readBinary(file);
	}

	/** `MetadataCache#getFirstLinkpathDest`, as a path. */
	resolveLink(linkpath: string, sourcePath: string): string | null {
		return this.app.metadataCache.getFirstLinkpathDest(linkpath, sourcePath)?.path ?? null;
	}

	/** `MetadataCache#resolvedLinks` (live object: the engine only reads it). */
	resolvedLinks(): LinkMap {
		return this.app.metadataCache.resolvedLinks;
	}

	/** `MetadataCache#unresolvedLinks` (live object: the engine only reads it). */
	unresolvedLinks(): LinkMap {
		return this.app.metadataCache.unresolvedLinks;
	}

	/** A file of the config folder (e.g. `types.json`) through `vault.adapter`, or null when absent or unreadable. */
	async readConfigFile(name: string): Promise<string | null> {
		const path = normalizePath(`${this.configDir}/${name}`);
		const adapter = this.app.vault.adapter;
		try {
			return (await adapter.exists(path)) ? await adapter.read(path) : null;
		} catch {
			return null;
		}
	}

	/**
	 * A side file by explicit path: a vault file through `cachedRead`, else `vault.adapter`, which
	 * reaches hidden folders and the config folder that the vault API never lists. Null when absent.
	 */
	async readSideFile(path: string): Promise<string | null> {
		const clean = normalizePath(path);
		if (clean.split('/').includes('..')) throw new Error(`Not a path inside the vault: ${path}`);
		const file = this.file(clean);
		if (file) return this.app.vault.cachedRead(file);
		const adapter = this.app.vault.adapter;
		return (await adapter.exists(clean)) ? adapter.read(clean) : null;
	}

	/** Obsidian's own `parseYaml`, the parser its frontmatter went through (throws on invalid YAML). */
	parseYaml(text: string): unknown {
		const value: unknown = parseYaml(text);
		return value;
	}

	/**
	 * The number of Markdown notes Obsidian has not parsed yet, as steps (core/steps) that pause
	 * after the listing and every 256 notes: at 50k notes the listing and one `getFileCache` per
	 * note held the main thread ~0.1 s in one go.
	 */
	*unindexedSteps(): Generator<void, number, void> {
		const files = yield* this.markdownFileSteps();
		yield;
		let missing = 0;
		for (let i = 0; i < files.length; i++) {
			if (this.app.metadataCache.getFileCache(files[i]!) === null) missing++;
			if ((i & COUNT_STEP_MASK) === COUNT_STEP_MASK) yield;
		}
		return missing;
	}

	private file(path: string): TFile | null {
		const file = this.app.vault.getAbstractFileByPath(path);
		return file instanceof TFile ? file : null;
	}
}
