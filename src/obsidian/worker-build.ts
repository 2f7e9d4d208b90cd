/**
 * The index worker's side (worker-entry.ts wires it to the worker's globals; tests run the bundled
 * entry in a Node worker thread): the search index is built with core's `SearchIndex.build` over
 * a NoteSource serving the notes the main thread posts, and encoded into the saved part with the
 * codec the IndexedDB save uses. Nothing here imports `obsidian` or the DOM: it runs in a Web
 * Worker on desktop and mobile.
 */
import type { CachedMetadata, LinkMap } from '../core/metadata';
import type { NoteSource } from '../core/port';
import { encodePartChunksSteps } from '../core/snapshot/part-codec';
import { partPieces, PIECE_BYTES } from './part-pieces';
import { searchSectionsSteps } from '../core/snapshot/search-part';
import { SearchIndex } from '../core/search/search-index';
import { drain } from '../core/steps';
import { browserCodecHost } from './browser-codec';
import {
	messageOf,
	PIECES_IN_FLIGHT,
	type BuildRequest,
	type FromIndexWorker,
	type PostedNote,
	type ToIndexWorker,
	unpackPaths,
	unpackStamps,
} from './worker-protocol';

/** Notes asked of the main thread ahead of the one the build reads. */
const READ_AHEAD = 512; // why: the main thread reads the next window while the worker indexes this one; ~2 MB of texts held.
/** Notes the build reads at once (its chunks). */
const BUILD_READ_BATCH = 64;
/** Progress messages a build posts at most (besides its last). */
const PROGRESS_STEPS = 100; // why: a notice's percentage moves by one; a message per read batch was ~800 at 50k notes.

/** Posts a message to the main thread (with the buffers to transfer). */
export type PostToMain = (message: FromIndexWorker, transfer?: ArrayBuffer[]) => void;

/** UTF-8 as Obsidian reads a note: a leading BOM dropped, a malformed sequence as U+FFFD (made at the first note, not when the bundle loads). */
let utf8: TextDecoder | null = null;

/** A posted note's text, decoded here rather than on the main thread. */
function textOf(bytes: ArrayBuffer): string {
	return (utf8 ??= new TextDecoder('utf-8')).decode(bytes);
}

/** A NoteSource over the notes the main thread posts (see the module comment). */
export class PostedNotes implements NoteSource {
	readonly vaultPath: string;
	readonly configDir: string;
	readonly userIgnoreFilters: readonly string[];
	private readonly notes: readonly string[];
	private readonly got = new Map<string, PostedNote>();
	private readonly waiting = new Map<string, { resolve: (text: string) => void; reject: (e: Error) => void }>();
	/** The order the build reads notes in (its scope), and how far it was asked of the main thread. */
	private order: string[] | null = null;
	private position = new Map<string, number>();
	private asked = 0;
	private readonly askedAlone = new Set<string>();

	constructor(
		private readonly request: BuildRequest,
		private readonly ask: (paths: string[]) => void,
	) {
		this.vaultPath = request.vault.vaultPath;
		this.configDir = request.vault.configDir;
		this.userIgnoreFilters = request.vault.userIgnoreFilters;
		this.notes = unpackPaths(request.notes);
	}

	/** Notes read on the main thread: a waiting read is answered. */
	receive(notes: readonly PostedNote[]): void {
		for (const note of notes) {
			const waiting = this.waiting.get(note.path);
			if (waiting === undefined) {
				this.got.set(note.path, note);
				continue;
			}
			this.waiting.delete(note.path);
			this.got.set(note.path, { ...note, bytes: null });
			if (note.bytes !== null) waiting.resolve(textOf(note.bytes));
			else waiting.reject(new Error(note.error ?? 'unreadable'));
		}
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
		this.got.set(path, { ...note, bytes: null }); // read once: the bytes are not held after
		return note.bytes !== null
			? Promise.resolve(textOf(note.bytes))
			: Promise.reject(new Error(note.error ?? 'unreadable'));
	}

	/** Ask for the notes from `path` on when the build comes within half a window of what was asked. */
	private askAhead(path: string): void {
		const order = (this.order ??= this.readingOrder());
		const at = this.position.get(path);
		if (at === undefined) {
			if (!this.got.has(path) && !this.askedAlone.has(path)) {
				this.askedAlone.add(path);
				this.ask([path]);
			}
			return;
		}
		if (at + READ_AHEAD / 2 < this.asked) return;
		const from = Math.max(this.asked, at);
		const to = Math.min(order.length, from + READ_AHEAD);
		if (to > from) this.ask(order.slice(from, to));
		this.asked = to;
	}

	/** The notes `SearchIndex.build` reads, in its order: the scope's, less what the index leaves out. */
	private readingOrder(): string[] {
		const probe = new SearchIndex(this.request.settings);
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

/** A progress callback that posts when the build has got a hundredth of the notes further (and at the end). */
export function progressPoster(post: PostToMain): (done: number, total: number) => void {
	let next = 0;
	return (done, total) => {
		if (done < next && done < total) return;
		next = done + Math.max(1, Math.ceil(total / PROGRESS_STEPS));
		post({ type: 'progress', done, total });
	};
}

/** Build the index over `source` and encode its saved part; its bytes, in the encoder's chunks. */
async function buildPart(request: BuildRequest, source: PostedNotes, post: PostToMain): Promise<Uint8Array[]> {
	const index = await SearchIndex.build(source, request.settings, {
		sliceMs: Infinity, // a worker has no frame to keep: it pauses only where it waits for notes
		readBatch: BUILD_READ_BATCH,
		onProgress: progressPoster(post),
	});
	const host = browserCodecHost;
	const sections = drain(searchSectionsSteps(index, host));
	const { tool, settings } = request.part;
	const stamps = unpackStamps(request.part.stamps);
	return drain(encodePartChunksSteps({ kind: 'search', tool, settings, stamps, sections }, host));
}

/**
 * The worker's message handler: a `build` starts the build, `notes` feed it; the part's bytes are
 * posted back in pieces of `pieceBytes` (each transferred: the main thread never receives one 130 MB
 * buffer, which V8 answers with a collection of the whole heap at once), a few ahead of the main
 * thread's `taken`, then `done`; or the error with `failed`.
 */
export function serveIndexBuild(post: PostToMain, pieceBytes = PIECE_BYTES): (message: ToIndexWorker) => void {
	let source: PostedNotes | null = null;
	/** Posts the part's next piece, or `done` after the last (null before the part is encoded, and after `done`). */
	let postNext: (() => void) | null = null;
	return (message) => {
		if (message.type === 'notes') {
			source?.receive(message.notes);
			return;
		}
		if (message.type === 'taken') {
			postNext?.();
			return;
		}
		const notes = new PostedNotes(message, (paths) => post({ type: 'read', paths }));
		source = notes;
		buildPart(message, notes, post).then(
			(chunks) => {
				const pieces = partPieces(chunks, pieceBytes);
				let length = 0;
				postNext = () => {
					const piece = pieces.next();
					if (piece.done === true) {
						postNext = null;
						post({ type: 'done', length, notes: notes.listNotes().length });
						return;
					}
					length += piece.value.length; // before it goes: a transferred piece is empty here
					post({ type: 'part', bytes: piece.value }, [piece.value.buffer as ArrayBuffer]);
				};
				for (let n = 0; n < PIECES_IN_FLIGHT; n++) postNext?.();
			},
			(error: unknown) => post({ type: 'failed', message: messageOf(error) }),
		);
	};
}
