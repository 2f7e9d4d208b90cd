/**
 * The index workers' view of the notes the main thread posts (worker-host.ts reads them): a
 * NoteSource whose `read` asks the main thread for a window of notes ahead of the one read, and
 * answers from the bytes posted. The builder reads its share of the vault through it, the counting
 * worker (worker-count.ts) the rest. Nothing here imports `obsidian` or the DOM.
 */
import type { CachedMetadata, LinkMap } from '../core/metadata';
import type { NoteSource } from '../core/port';
import { SearchIndex } from '../core/search/search-index';
import type { SearchSettings } from '../core/search/settings';
import { batchTexts } from './batch-text';
import { unpackPaths, type AskForNotes, type PostedNote } from './worker-protocol';

/** The notes a PostedNotes serves: the settings that scope them, what the source tells core of the vault, and the note list (packed). */
export interface PostedList {
	settings: SearchSettings;
	vault: { vaultPath: string; configDir: string; userIgnoreFilters: string[] };
	/** Note paths, in walk order ({@link packPaths}). */
	notes: Uint16Array;
}

/** Notes asked of the main thread ahead of the one the build reads. */
const READ_AHEAD = 512; // why: the main thread reads the next window while the worker indexes this one; ~2 MB of texts held.

/** UTF-8 as Obsidian reads a note: a leading BOM dropped, a malformed sequence as U+FFFD (made at the first note, not when the bundle loads). */
let utf8: TextDecoder | null = null;

/** A posted note's text, decoded here rather than on the main thread. */
function textOf(bytes: Uint8Array): string {
	return (utf8 ??= new TextDecoder('utf-8')).decode(bytes);
}

/** A NoteSource over the notes the main thread posts (see the module comment). */
export class PostedNotes implements NoteSource {
	readonly vaultPath: string;
	readonly configDir: string;
	readonly userIgnoreFilters: readonly string[];
	private readonly notes: readonly string[];
	private readonly got = new Map<string, PostedNote>();
	/** Texts decoded with their batch (batch-text.ts), until read. */
	private readonly texts = new Map<string, string>();
	private readonly waiting = new Map<string, { resolve: (text: string) => void; reject: (e: Error) => void }>();
	/** The order the notes are read in (a build's scope, or the order given), and how far it was asked of the main thread. */
	private order: readonly string[] | null;
	private position = new Map<string, number>();
	private asked = 0;
	/** Where the read-ahead stops (the notes after it are another worker's to read). */
	private end = Infinity;
	private readonly askedAlone = new Set<string>();
	/** The notes a {@link fetch} waits for, and how it is told they are all here. */
	private fetching: { left: Set<string>; done: () => void } | null = null;
	/** Batch buffers whose notes are all decoded: handed back with the next ask, for the main thread to fill again. */
	private spare: ArrayBuffer[] = [];

	/** The notes of `list`, asked of the main thread with `ask`, read in `order` (by default as `SearchIndex.build` reads them). */
	constructor(
		private readonly list: PostedList,
		private readonly ask: AskForNotes,
		order: readonly string[] | null = null,
	) {
		this.vaultPath = list.vault.vaultPath;
		this.configDir = list.vault.configDir;
		this.userIgnoreFilters = list.vault.userIgnoreFilters;
		this.notes = unpackPaths(list.notes);
		this.order = order;
		order?.forEach((path, i) => this.position.set(path, i));
	}

	/** The order the notes are read in. */
	readingOrder(): readonly string[] {
		return (this.order ??= this.buildOrder());
	}

	/** Read ahead only up to the note at `end` in the reading order (Infinity: all). */
	readUpTo(end: number): void {
		this.end = end;
	}

	/** Notes read on the main thread (decoded with their batch where it can be): a waiting read is answered. */
	receive(notes: readonly PostedNote[]): void {
		const texts = batchTexts(notes);
		// Decoded whole, no note holds the batch's buffer any more: the main thread may fill it again (batch-buffers.ts).
		const first = notes.find((note) => note.bytes !== null)?.bytes;
		if (texts !== null && first) this.spare.push(first.buffer as ArrayBuffer);
		notes.forEach((note, i) => {
			const text = texts?.[i] ?? null;
			const waiting = this.waiting.get(note.path);
			if (waiting === undefined) {
				if (text !== null) this.texts.set(note.path, text);
				this.got.set(note.path, text === null ? note : { ...note, bytes: null });
				return;
			}
			this.waiting.delete(note.path);
			this.got.set(note.path, { ...note, bytes: null });
			if (text !== null) waiting.resolve(text);
			else if (note.bytes !== null) waiting.resolve(textOf(note.bytes));
			else waiting.reject(new Error(note.error ?? 'unreadable'));
		});
		this.fetched(notes);
	}

	/**
	 * Ask for `paths` (those listed as notes) at once and resolve when they are all here: a
	 * refresh (worker-refresh.ts) asks a note's skip reason before it reads the note, as the
	 * engine's `applyPath` does, and only a note posted has one. One fetch at a time.
	 */
	fetch(paths: readonly string[]): Promise<void> {
		if (this.fetching !== null) return Promise.reject(new Error('a fetch is already waiting'));
		const listed = new Set(this.notes);
		const missing = paths.filter((path) => listed.has(path) && !this.got.has(path) && !this.askedAlone.has(path));
		if (missing.length === 0) return Promise.resolve();
		for (const path of missing) this.askedAlone.add(path);
		return new Promise((done) => {
			this.fetching = { left: new Set(missing), done };
			this.ask(missing, this.takeSpare());
		});
	}

	/** The notes a {@link fetch} waits for that just came; it resolves when none is left. */
	private fetched(notes: readonly PostedNote[]): void {
		const fetching = this.fetching;
		if (fetching === null) return;
		for (const note of notes) fetching.left.delete(note.path);
		if (fetching.left.size > 0) return;
		this.fetching = null;
		fetching.done();
	}

	/** What another worker read of its notes (their skip reasons and errors; no bytes, no metadata): this source answers for them. */
	learn(notes: readonly PostedNote[]): void {
		for (const note of notes) if (!this.got.has(note.path)) this.got.set(note.path, note);
	}

	listNotes(): readonly string[] {
		return this.notes;
	}

	listFiles(): readonly string[] {
		return this.notes; // the build resolves no links
	}

	/**
	 * The note's metadata, read once (the build reads it as it indexes the note) and not held after,
	 * as the text is not: held to the end, the notes' metadata was a third of the worker's heap.
	 */
	getMetadata(path: string): CachedMetadata | null {
		const note = this.got.get(path);
		if (note === undefined || note.metadata === null) return null;
		this.got.set(path, { ...note, metadata: null });
		return note.metadata;
	}

	getFrontmatterError(path: string): string | null {
		return this.got.get(path)?.frontmatterError ?? null;
	}

	getSkipReason(path: string): string | null {
		return this.got.get(path)?.skipReason ?? null;
	}

	getMtime(): number | null {
		return null;
	}

	/** The note's text once the main thread has posted it; asks for the next window of notes. */
	read(path: string): Promise<string> {
		this.askAhead(path);
		const note = this.got.get(path);
		if (note === undefined) return new Promise((resolve, reject) => this.waiting.set(path, { resolve, reject }));
		const text = this.texts.get(path);
		if (text !== undefined) {
			this.texts.delete(path); // read once: the text is not held after
			return Promise.resolve(text);
		}
		this.got.set(path, { ...note, bytes: null }); // read once: the bytes are not held after
		return note.bytes !== null
			? Promise.resolve(textOf(note.bytes))
			: Promise.reject(new Error(note.error ?? 'unreadable'));
	}

	/** Ask for the notes from `path` on when the build comes within half a window of what was asked. */
	private askAhead(path: string): void {
		const order = this.readingOrder();
		const at = this.position.get(path);
		if (at === undefined || at >= this.end) {
			if (!this.got.has(path) && !this.askedAlone.has(path)) {
				this.askedAlone.add(path);
				this.ask([path], this.takeSpare());
			}
			return;
		}
		if (at + READ_AHEAD / 2 < this.asked) return;
		const from = Math.max(this.asked, at);
		const to = Math.min(order.length, this.end, from + READ_AHEAD);
		if (to > from) this.ask(order.slice(from, to), this.takeSpare());
		this.asked = Math.max(this.asked, to);
	}

	/** The buffers to hand back with an ask (then none until more batches are decoded). */
	private takeSpare(): ArrayBuffer[] {
		const spare = this.spare;
		this.spare = [];
		return spare;
	}

	/** The notes `SearchIndex.build` reads, in its order: the scope's, less what the index leaves out. */
	private buildOrder(): string[] {
		const probe = new SearchIndex(this.list.settings);
		const scope = probe.rescope(this);
		const order = scope.notes.filter((p) => !probe.isExcluded(p, this.configDir));
		order.forEach((path, i) => this.position.set(path, i));
		return order;
	}

	resolveLink(): string | null {
		return null;
	}

	resolvedLinks(): LinkMap {
		return {};
	}

	unresolvedLinks(): LinkMap {
		return {};
	}

	/** Side notes (keyword index, synonyms) are loaded by the main thread when it restores the index. */
	readSideFile(): Promise<string | null> {
		return Promise.resolve(null);
	}

	readConfigFile(): Promise<string | null> {
		return Promise.resolve(null);
	}

	parseYaml(): unknown {
		throw new Error('the index worker parses no YAML');
	}
}
