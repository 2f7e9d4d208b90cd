/**
 * A fake Obsidian `App` built on our Node parser and resolver, behaving the way
 * shared/OBSIDIAN-METADATA.md ("Events inside Obsidian") says the real one does:
 *
 * - The metadata cache starts EMPTY (`getFileCache` → null for every note).
 * - `indexAll()` parses each note, firing `changed(file, data, cache)` per note, then resolves the
 *   link maps, firing `resolve(file)` per note and one `resolved`.
 * - `workspace.onLayoutReady` callbacks wait for `layoutReady()` (called at once when already ready).
 * - Edits fire vault `modify` → `changed` → `resolve` → `resolved`; creates fire vault `create`
 *   first; renames fire vault `rename(file, oldPath)` and no `changed`; deletes fire vault
 *   `delete`, then metadataCache `deleted(file, prevCache)`.
 * - Like Obsidian, files and folders whose name starts with `.` are not part of the vault; the
 *   config folder's own files are reachable through `vault.adapter` only.
 *
 * Every triggered event is appended to `app.events` so tests can assert the order.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
	Events,
	TFile,
	TFolder,
	type App,
	type CachedMetadata as ObsidianCachedMetadata,
	type Command,
	type EventRef,
} from 'obsidian';
import type { CachedMetadata, LinkMap } from '../../src/core/metadata';
import { buildLinkMaps } from '../../src/node/link-maps';
import { parseNote } from '../../src/node/parser/index';
import { LinkResolver } from '../../src/node/resolver';
import { walkVault } from '../helpers/vault-files';

/** Obsidian's default config folder (the fake's default too). */
export const DEFAULT_CONFIG_DIR = '.obsidian';

/** `Events` that can say how many listeners are attached, so tests can prove they are released. */
class CountingEvents extends Events {
	private readonly refs = new Set<EventRef>();
	private readonly names = new Map<EventRef, string>();

	override on(name: string, callback: (...data: unknown[]) => unknown, ctx?: unknown): EventRef {
		const ref = super.on(name, callback, ctx);
		this.refs.add(ref);
		this.names.set(ref, name);
		return ref;
	}

	override offref(ref: EventRef): void {
		super.offref(ref);
		this.refs.delete(ref);
		this.names.delete(ref);
	}

	/** Listeners currently attached to `name`. */
	listenerCount(name: string): number {
		return [...this.refs].filter((ref) => this.names.get(ref) === name).length;
	}
}

/** Options of the fake app. */
export interface FakeAppOptions {
	configDir?: string;
	/** What `vault.getConfig('userIgnoreFilters')` returns; `undefined` = no `getConfig` at all. */
	userIgnoreFilters?: string[];
	/** Name reported by `vault.getName()`. */
	name?: string;
	/** Files' modification times (ms) by path, as on disk; a file not named here gets the current time. */
	mtimes?: Record<string, number>;
	/** `app.appId` (Obsidian's id of the vault on this device, which names its saved index); default: one of its own per app. */
	appId?: string;
}

/** Fake apps made so far, for their own `appId`s (two fake vaults never share a saved index by accident). */
let apps = 0;

/**
 * One file of the fake vault: its text held (a file the test added or wrote), or read from `disk`
 * at every read — as Obsidian's `cachedRead` reads a note that is not open, so a large folder's
 * texts (~400 MB at 50k notes) are not on the heap the plugin's collections mark.
 */
interface Entry {
	file: TFile;
	text: string | null;
	disk?: string;
}

/** The text of `entry` (from disk when it holds none). */
function textOfEntry(entry: Entry): string {
	return entry.text ?? withoutBom(readFileSync(entry.disk!, 'utf8'));
}

/** The UTF-8 bytes of a text as `Vault#readBinary` gives them (an ArrayBuffer of their own), or null for no text. */
export function bytesOf(text: string | null | undefined): ArrayBuffer | null {
	return text === null || text === undefined ? null : exactBuffer(new TextEncoder().encode(text));
}

/** A note's bytes as the main thread posts them to the index worker (a view; null for no text). */
export function postedBytesOf(text: string | null | undefined): Uint8Array | null {
	return text === null || text === undefined ? null : new TextEncoder().encode(text);
}

/** The bytes of `view` in an ArrayBuffer of exactly their length (a Node Buffer may be a slice of a larger one). */
function exactBuffer(view: Uint8Array): ArrayBuffer {
	return view.buffer.slice(view.byteOffset, view.byteOffset + view.byteLength) as ArrayBuffer;
}

/** A file's text on disk, a leading BOM dropped (as the Node adapter does). */
function withoutBom(text: string): string {
	return text.replace(/^\uFEFF/, '');
}

function baseOf(name: string): { basename: string; extension: string } {
	const dot = name.lastIndexOf('.');
	return dot <= 0
		? { basename: name, extension: '' }
		: { basename: name.slice(0, dot), extension: name.slice(dot + 1) };
}

function nameOf(path: string): string {
	return path.slice(path.lastIndexOf('/') + 1);
}

/** The fake `vault.adapter`: the config folder's files (read-only), by vault path. */
export class FakeAdapter {
	readonly files = new Map<string, string>();

	async exists(path: string): Promise<boolean> {
		return this.files.has(path);
	}

	async read(path: string): Promise<string> {
		const text = this.files.get(path);
		if (text === undefined) throw new Error(`ENOENT: ${path}`);
		return text;
	}
}

/** The fake `app.vault`. */
export class FakeVault extends CountingEvents {
	readonly configDir: string;
	readonly adapter = new FakeAdapter();
	private readonly entries = new Map<string, Entry>();
	private readonly folders = new Map<string, TFolder>();
	private readonly root: TFolder;
	getConfig?: (key: string) => unknown;
	/**
	 * `cachedRead` of a note read from disk waits for the disk off the main thread (as Obsidian's
	 * does) instead of reading at once: the benches set it, so 50k reads do not run on the thread
	 * they measure; tests leave it off (their turns of the event loop do not wait on a disk).
	 */
	diskReadsAsync = false;

	constructor(
		private readonly vaultName: string,
		configDir: string,
		userIgnoreFilters: string[] | undefined,
	) {
		super();
		this.configDir = configDir;
		this.root = new TFolder();
		this.root.path = '/';
		this.folders.set('', this.root);
		if (userIgnoreFilters !== undefined) {
			this.getConfig = (key: string): unknown =>
				key === 'userIgnoreFilters' ? [...userIgnoreFilters] : undefined;
		}
	}

	getName(): string {
		return this.vaultName;
	}

	/** The root folder; its children, and theirs, are every file and folder of the vault. */
	getRoot(): TFolder {
		return this.root;
	}

	getMarkdownFiles(): TFile[] {
		return this.listed((file) => file.extension === 'md');
	}

	/** Obsidian's own order is not alphabetical; reversing insertion order keeps callers honest. */
	getFiles(): TFile[] {
		return this.listed(() => true);
	}

	/**
	 * One pass over the files, as Obsidian's own listing is (a loop over its file map), so the
	 * plugin bench times the plugin rather than copies the fake made: at 50k notes three copies of
	 * 56k entries held the main thread ~0.1 s.
	 */
	private listed(keep: (file: TFile) => boolean): TFile[] {
		const files: TFile[] = [];
		for (const entry of this.entries.values()) if (keep(entry.file)) files.push(entry.file);
		return files.reverse();
	}

	getAbstractFileByPath(path: string): TFile | TFolder | null {
		return this.entries.get(path)?.file ?? (path === '' ? null : (this.folders.get(path) ?? null));
	}

	async cachedRead(file: TFile): Promise<string> {
		const entry = this.entries.get(file.path);
		if (!entry) throw new Error(`ENOENT: ${file.path}`);
		if (entry.text === null && this.diskReadsAsync) return withoutBom(await readFile(entry.disk!, 'utf8'));
		return textOfEntry(entry);
	}

	/** The file's bytes: from disk as they are (a BOM kept), else its text's UTF-8. */
	async readBinary(file: TFile): Promise<ArrayBuffer> {
		const entry = this.entries.get(file.path);
		if (!entry) throw new Error(`ENOENT: ${file.path}`);
		if (entry.text !== null) return bytesOf(entry.text)!;
		return exactBuffer(this.diskReadsAsync ? await readFile(entry.disk!) : readFileSync(entry.disk!));
	}

	/** Test helper: the text of a file. */
	textOf(path: string): string | undefined {
		const entry = this.entries.get(path);
		return entry && textOfEntry(entry);
	}

	/** Adds a file without any event (initial vault load). */
	// clock-ok: a new file's modification time, not a measurement
	add(path: string, text: string, mtime = Date.now()): TFile {
		const file = new TFile();
		this.place(file, path);
		file.stat = { ctime: mtime, mtime, size: text.length };
		this.entries.set(path, { file, text });
		return file;
	}

	/** Adds a file read from `disk` at every read (its stat as `add` gives it for `text`, its text now), without any event. */
	addFromDisk(path: string, disk: string, text: string, mtime: number): TFile {
		const file = this.add(path, text, mtime);
		this.entries.set(path, { file, text: null, disk });
		return file;
	}

	/** Replaces a file's text (no event). */
	setText(path: string, text: string): TFile {
		const entry = this.entries.get(path);
		if (!entry) throw new Error(`no such file ${path}`);
		entry.text = text;
		entry.file.stat = { ...entry.file.stat, mtime: entry.file.stat.mtime + 1, size: text.length };
		return entry.file;
	}

	/** Moves a file (no event); returns it. */
	move(oldPath: string, newPath: string): TFile {
		const entry = this.entries.get(oldPath);
		if (!entry) throw new Error(`no such file ${oldPath}`);
		this.entries.delete(oldPath);
		this.detach(entry.file);
		this.place(entry.file, newPath);
		this.entries.set(newPath, entry);
		return entry.file;
	}

	/** Removes a file (no event); returns it. */
	remove(path: string): TFile {
		const entry = this.entries.get(path);
		if (!entry) throw new Error(`no such file ${path}`);
		this.entries.delete(path);
		this.detach(entry.file);
		return entry.file;
	}

	private folder(path: string): TFolder {
		const existing = this.folders.get(path);
		if (existing) return existing;
		const slash = path.lastIndexOf('/');
		const parent = this.folder(slash < 0 ? '' : path.slice(0, slash));
		const folder = new TFolder();
		folder.path = path;
		folder.name = nameOf(path);
		folder.parent = parent;
		folder.vault = this as unknown as App['vault'];
		parent.children.push(folder);
		this.folders.set(path, folder);
		return folder;
	}

	private place(file: TFile, path: string): void {
		const slash = path.lastIndexOf('/');
		const parent = this.folder(slash < 0 ? '' : path.slice(0, slash));
		file.path = path;
		file.name = nameOf(path);
		const { basename, extension } = baseOf(file.name);
		file.basename = basename;
		file.extension = extension;
		file.parent = parent;
		file.vault = this as unknown as App['vault'];
		parent.children.push(file);
	}

	private detach(file: TFile): void {
		const parent = file.parent;
		if (parent) parent.children = parent.children.filter((c) => c !== file);
	}
}

/** The fake `app.metadataCache`: empty until the app indexes. */
export class FakeMetadataCache extends CountingEvents {
	resolvedLinks: LinkMap = {};
	unresolvedLinks: LinkMap = {};
	private readonly caches = new Map<string, CachedMetadata>();
	private resolver = new LinkResolver([]);

	constructor(private readonly vault: FakeVault) {
		super();
	}

	getFileCache(file: TFile): ObsidianCachedMetadata | null {
		return this.caches.get(file.path) ?? null;
	}

	getCache(path: string): ObsidianCachedMetadata | null {
		return this.caches.get(path) ?? null;
	}

	getFirstLinkpathDest(linkpath: string, sourcePath: string): TFile | null {
		const path = this.resolver.getFirstLinkpathDest(linkpath, sourcePath);
		const file = path === null ? null : this.vault.getAbstractFileByPath(path);
		return file instanceof TFile ? file : null;
	}

	/** Parses a note into the cache; returns its metadata. */
	parse(path: string, text: string): CachedMetadata {
		const { metadata } = parseNote(text);
		this.caches.set(path, metadata);
		return metadata;
	}

	/**
	 * Fills the cache as Obsidian's own saved metadata cache does at start, without an event: each
	 * note's metadata and the link maps computed elsewhere (the Chromium bench computes them in Node).
	 */
	restore(caches: Record<string, CachedMetadata>, maps: { resolvedLinks: LinkMap; unresolvedLinks: LinkMap }): void {
		for (const [path, metadata] of Object.entries(caches)) this.caches.set(path, metadata);
		this.resolver = new LinkResolver(this.vault.getFiles().map((f) => f.path));
		this.resolvedLinks = maps.resolvedLinks;
		this.unresolvedLinks = maps.unresolvedLinks;
	}

	/** Drops a note's cache; returns what it was. */
	drop(path: string): CachedMetadata | null {
		const prev = this.caches.get(path) ?? null;
		this.caches.delete(path);
		return prev;
	}

	/** Moves a cache entry on rename (Obsidian keeps the parsed cache; no `changed` fires). */
	move(oldPath: string, newPath: string): void {
		const cache = this.caches.get(oldPath);
		this.caches.delete(oldPath);
		if (cache) this.caches.set(newPath, cache);
	}

	/** Recomputes the link maps from every cached note over the current file list. */
	relink(): void {
		this.resolver = new LinkResolver(this.vault.getFiles().map((f) => f.path));
		const notes = this.vault.getMarkdownFiles().flatMap((f) => {
			const cache = this.caches.get(f.path);
			return cache ? [[f.path, cache] as const] : [];
		});
		const maps = buildLinkMaps(notes, this.resolver);
		this.resolvedLinks = maps.resolvedLinks;
		this.unresolvedLinks = maps.unresolvedLinks;
	}
}

/** What the fake leaf recorded when asked to open a file. */
export interface OpenedFile {
	path: string;
	newLeaf: unknown;
	state: unknown;
}

/** The fake `app.workspace`. */
export class FakeWorkspace extends CountingEvents {
	layoutReady = false;
	activeFile: TFile | null = null;
	readonly opened: OpenedFile[] = [];
	private readonly pending: (() => unknown)[] = [];

	onLayoutReady(callback: () => unknown): void {
		if (this.layoutReady) callback();
		else this.pending.push(callback);
	}

	getActiveFile(): TFile | null {
		return this.activeFile;
	}

	getLeaf(newLeaf?: unknown): { openFile(file: TFile, state?: unknown): Promise<void> } {
		return {
			openFile: async (file: TFile, state?: unknown) => {
				this.opened.push({ path: file.path, newLeaf: newLeaf ?? false, state });
			},
		};
	}

	/** Runs the queued `onLayoutReady` callbacks. */
	fireLayoutReady(): void {
		this.layoutReady = true;
		for (const cb of this.pending.splice(0)) cb();
	}
}

/** The part of Obsidian's internal `app.commands` the stub's `Plugin.addCommand` feeds. */
export class FakeCommands {
	readonly commands: Record<string, Command> = {};

	addCommand(command: Command): void {
		this.commands[command.id] = command;
	}

	removeCommand(id: string): void {
		delete this.commands[id];
	}

	executeCommandById(id: string): boolean {
		const command = this.commands[id];
		if (!command?.callback) return false;
		void command.callback();
		return true;
	}
}

/** The fake App. Pass it to the plugin as `app as unknown as App`. */
export class FakeApp {
	/** Obsidian's id of the vault on this device (runtime-only, not in the typings). */
	readonly appId: string;
	readonly vault: FakeVault;
	readonly metadataCache: FakeMetadataCache;
	readonly workspace = new FakeWorkspace();
	readonly commands = new FakeCommands();
	/** Every event triggered so far, as `source:name path`, in order. */
	readonly events: string[] = [];

	constructor(files: Record<string, string> = {}, options: FakeAppOptions = {}) {
		this.vault = new FakeVault(
			options.name ?? 'Fake vault',
			options.configDir ?? DEFAULT_CONFIG_DIR,
			options.userIgnoreFilters,
		);
		this.metadataCache = new FakeMetadataCache(this.vault);
		this.appId = options.appId ?? `fake-app-${++apps}`;
		for (const [path, text] of Object.entries(files)) this.vault.add(path, text, options.mtimes?.[path]);
		this.recordEvents();
	}

	/**
	 * Loads a folder the way Obsidian would: every file except dot-files and dot-folders (which
	 * covers the config folder), `userIgnoreFilters` from `<configDir>/app.json`. A leading BOM is
	 * dropped from the text, as the Node adapter does, so both faces see the same characters.
	 */
	static fromFolder(root: string, options: FakeAppOptions = {}): FakeApp {
		const configDir = options.configDir ?? DEFAULT_CONFIG_DIR;
		let filters = options.userIgnoreFilters;
		if (filters === undefined) {
			try {
				const appJson: unknown = JSON.parse(readFileSync(join(root, configDir, 'app.json'), 'utf8'));
				const value =
					typeof appJson === 'object' && appJson !== null && 'userIgnoreFilters' in appJson
						? appJson.userIgnoreFilters
						: undefined;
				filters = Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
			} catch {
				filters = [];
			}
		}
		const app = new FakeApp({}, { ...options, configDir, userIgnoreFilters: filters });
		const configAbs = join(root, configDir);
		if (existsSync(configAbs)) {
			for (const name of readdirSync(configAbs)) {
				const abs = join(configAbs, name);
				if (statSync(abs).isFile())
					app.vault.adapter.files.set(`${configDir}/${name}`, readFileSync(abs, 'utf8'));
			}
		}
		walkVault(root, (path, abs, stat) =>
			app.vault.addFromDisk(path, abs, withoutBom(readFileSync(abs, 'utf8')), stat.mtimeMs),
		);
		return app;
	}

	/** Cold start: parse every note (`changed` each), then resolve (`resolve` each, one `resolved`). */
	indexAll(): void {
		const notes = this.vault.getMarkdownFiles();
		for (const file of notes) {
			const text = this.vault.textOf(file.path) ?? '';
			const cache = this.metadataCache.parse(file.path, text);
			this.metadataCache.trigger('changed', file, text, cache);
		}
		this.resolveAll(notes);
	}

	/** Parse only some notes (a cold start caught half-way). No `resolved` fires. */
	indexSome(paths: string[]): void {
		for (const path of paths) {
			const file = this.vault.getAbstractFileByPath(path);
			if (!(file instanceof TFile)) throw new Error(`no such note ${path}`);
			const text = this.vault.textOf(path) ?? '';
			this.metadataCache.trigger('changed', file, text, this.metadataCache.parse(path, text));
		}
	}

	/** `workspace.onLayoutReady` callbacks run. */
	layoutReady(): void {
		this.workspace.fireLayoutReady();
	}

	/** Edits a note: vault `modify`, `changed`, `resolve`, `resolved`. */
	modify(path: string, text: string): void {
		const file = this.vault.setText(path, text);
		this.vault.trigger('modify', file);
		this.reparse(file, text);
	}

	/** Creates a file: vault `create`, then (for a note) `changed`, `resolve`, `resolved`. */
	create(path: string, text: string): void {
		const file = this.vault.add(path, text);
		this.vault.trigger('create', file);
		if (file.extension === 'md') this.reparse(file, text);
		else this.resolveAll([]);
	}

	/** Renames a file: vault `rename(file, oldPath)`, no `changed`; the maps re-resolve (`resolved`). */
	rename(oldPath: string, newPath: string): void {
		const file = this.vault.move(oldPath, newPath);
		this.metadataCache.move(oldPath, newPath);
		this.vault.trigger('rename', file, oldPath);
		this.resolveAll([]);
	}

	/** Deletes a file: vault `delete`, metadataCache `deleted(file, prevCache)`, then `resolved`. */
	delete(path: string): void {
		const file = this.vault.remove(path);
		const prev = this.metadataCache.drop(path);
		this.vault.trigger('delete', file);
		this.metadataCache.trigger('deleted', file, prev);
		this.resolveAll([]);
	}

	private reparse(file: TFile, text: string): void {
		const cache = this.metadataCache.parse(file.path, text);
		this.metadataCache.trigger('changed', file, text, cache);
		this.resolveAll([file]);
	}

	private resolveAll(files: TFile[]): void {
		this.metadataCache.relink();
		for (const file of files) this.metadataCache.trigger('resolve', file);
		this.metadataCache.trigger('resolved');
	}

	/** Wraps `trigger` on the three event sources so every event lands in `events`. */
	private recordEvents(): void {
		const sources: [string, Events][] = [
			['vault', this.vault],
			['metadataCache', this.metadataCache],
			['workspace', this.workspace],
		];
		for (const [label, source] of sources) {
			const trigger = source.trigger.bind(source);
			source.trigger = (name: string, ...data: unknown[]): void => {
				const first = data[0];
				const path = first instanceof TFile || first instanceof TFolder ? ` ${first.path}` : '';
				this.events.push(`${label}:${name}${path}`);
				trigger(name, ...data);
			};
		}
	}
}

/** The fake as the `App` type the plugin's constructor wants. */
export function asApp(app: FakeApp): App {
	return app as unknown as App;
}
