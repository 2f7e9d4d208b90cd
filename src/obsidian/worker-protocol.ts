/**
 * The messages between the plugin's main thread and its index worker (worker-build.ts runs in
 * the worker, worker-host.ts on the main thread). Everything is structured-cloneable: texts,
 * Obsidian's cached metadata (plain objects), the settings, and the part's bytes (transferred).
 *
 * 1. main → worker `build`: the settings, the vault's note list and what the part's header needs,
 *    packed (the paths' code units and the stats in transferred typed arrays): a list of 50k paths
 *    and stat objects held the main thread ~0.1 s to clone.
 * 2. worker → main `read`: the next notes the build will index, a window ahead of it.
 * 3. main → worker `notes`: those notes read (`readBinary`, their bytes), with their metadata, in batches,
 *    each packed into one transferred buffer (note-batch.ts).
 * 4. worker → main `progress` every hundredth of the notes, then `built` when the index is
 *    built, saying whether the worker has IndexedDB.
 * 5. main → worker `save` (the database and key the plugin keeps its part under): the worker
 *    encodes the part into it itself (its large sections made as the records are put) and posts
 *    `saved`, so its ~130 MB at 50k notes never cross to the
 *    main thread, which restores it from IndexedDB as at a restart. Or main → worker `send`
 *    (IndexedDB failing on either side; or the worker's save failed, `save-failed`): the part
 *    comes in `part` pieces (part-pieces.ts, each transferred), a few ahead of the main thread's
 *    `taken` ({@link PIECES_IN_FLIGHT}), then `done`. Any step may end in `failed`.
 *
 * A re-save (worker-refresh.ts) is a worker's job too: main → worker `refresh` (the note list and
 * every note's stat now, packed as in `build`, and where the part is saved): the worker loads the
 * saved part from IndexedDB, asks for the notes changed since its stamps (`read`, `notes`),
 * re-indexes them, and saves the part again, stamped with those stats; then `refreshed`, or
 * `failed` (no IndexedDB in the worker, no saved part, a damaged one): the main thread then saves
 * as before. The index the main thread answers from is not touched, nor its heap.
 *
 * With a second, counting worker (a large vault, two cores or more): main → it `count` with one end
 * of a channel, whose other end goes to the builder in `build`. Over the channel the builder sends
 * the counting worker its share (the later notes, {@link CountRequest}); the counting worker asks
 * the main thread for those notes (`read`, `notes`, as above) and sends back the notes counted in
 * batches ({@link CountedBatch}), or `failed`. When the counting worker dies the main thread tells
 * the builder (`helper-failed`), which then reads and counts the rest of the notes itself.
 */
import { FingerprintTable } from '../core/snapshot/fingerprint-table';
import type { CachedMetadata } from '../core/metadata';
import type { DocInfo } from '../core/search/extract';
import type { NoteFingerprint } from '../core/snapshot/codec';
import type { SearchSettings } from '../core/search/settings';
import { drain } from '../core/steps';

/** Start a build of the search index (one per worker). */
export interface BuildRequest {
	type: 'build';
	/** The engine's search settings (the index's shape). */
	settings: SearchSettings;
	/** What the source tells core about the vault: its name, config folder and Excluded files. */
	vault: { vaultPath: string; configDir: string; userIgnoreFilters: string[] };
	/** Every note path, in walk order (the source's `listNotes`), packed by {@link packPaths} (transferred). */
	notes: Uint16Array;
	/** The saved part's header: its build stamp, its settings string and every note's stat ({@link packStamps}). */
	part: { tool: string; settings: string; stamps: PackedStamps };
	/** The builder's end of a channel to a counting worker, which counts a share of the notes (transferred). */
	helper?: MessagePort;
}

/** Bring the saved part up to date with the vault and save it again (see the module comment). */
export interface RefreshRequest {
	type: 'refresh';
	/** The search settings of the index the main thread holds (the saved part must carry them). */
	settings: SearchSettings;
	vault: BuildRequest['vault'];
	/** Every note path now ({@link packPaths}, transferred). */
	notes: Uint16Array;
	/** The part's build stamp, the vault's settings string (IndexParts' `vaultSettings`) and every note's stat now. */
	part: { tool: string; vaultSettings: string; stamps: PackedStamps };
	/** Where the part is saved. */
	target: SaveTarget;
}

/** Why a refresh fails where the worker has no IndexedDB (a Node worker thread): the plugin stops asking. */
export const NO_WORKER_STORE = 'no IndexedDB in the worker';

/** Builder → counting worker, over their channel: count these notes. */
export interface CountRequest {
	type: 'count';
	settings: SearchSettings;
	vault: BuildRequest['vault'];
	/** The notes to count, in the builder's reading order ({@link packPaths}, transferred). */
	notes: Uint16Array;
}

/**
 * Counting worker → builder, over their channel: notes counted, in order. Each note's skip
 * reasons and read error (no bytes, no metadata), and its record when it was counted; the counted
 * notes' term ids (the counter's own) and packed frequencies end to end, where each note's end,
 * and their field lengths (`FIELD_COUNT` each), in typed arrays transferred.
 */
export interface CountedBatch {
	type: 'counted';
	/** The counter's terms new since the last batch, in id order. */
	terms: string[];
	notes: PostedNote[];
	/** Per note, its record; null when it was not counted (skipped or unreadable). */
	infos: (DocInfo | null)[];
	termIds: Uint32Array;
	tfs: Uint32Array;
	/** Per counted note, where its terms end in `termIds` and `tfs`. */
	ends: Uint32Array;
	fieldLen: Uint32Array;
}

/** What the counting worker sends the builder. */
export type FromCounter = CountedBatch | { type: 'failed'; message: string };

/** The buffers of a counted batch, to transfer. */
export function batchBuffers(batch: CountedBatch): ArrayBuffer[] {
	return [batch.termIds, batch.tfs, batch.ends, batch.fieldLen].map((array) => array.buffer as ArrayBuffer);
}

/** A channel's end as the workers use it (a DOM MessagePort, or Node's, which has the same shape). */
export interface WorkerPort<In, Out> {
	postMessage(message: Out, transfer?: Transferable[]): void;
	onmessage: ((event: { data: In }) => void) | null;
	close(): void;
}

/** Every note's stat as a few values to clone or transfer, not an object a note. */
export interface PackedStamps {
	/** The notes' paths ({@link packPaths}). */
	paths: Uint16Array;
	/** Per note, in the order of `paths`: size, mtime, ctime and inode. */
	numbers: Float64Array;
	/** Per note: 1 when it is racy. */
	racy: Uint8Array;
}

/** What separates the paths of {@link packPaths}: no file name holds a NUL. */
const PATH_END = '\u0000';

/** Paths or stamps packed between two pauses of the packing steps. */
const PACK_STEP = 4096; // why: 50k paths joined and their stats copied in one go held the main thread ~0.1 s.

/**
 * Paths as the UTF-16 code units of one NUL-separated string, in a buffer to transfer: cloned as a
 * string (twice, with the stamps' paths) the request held the main thread ~30 ms at 50k notes.
 * Code units, not UTF-8: a file name may hold a lone surrogate, which UTF-8 cannot carry.
 */
export function packPaths(paths: readonly string[]): Uint16Array {
	return drain(packPathsSteps(paths));
}

/** {@link packPaths} in steps: {@link PACK_STEP} paths joined and copied a step. */
export function* packPathsSteps(paths: readonly string[]): Generator<void, Uint16Array, void> {
	const pieces: string[] = [];
	let length = 0;
	for (let at = 0; at < paths.length; at += PACK_STEP) {
		if (at > 0) yield;
		const piece = (at > 0 ? PATH_END : '') + paths.slice(at, at + PACK_STEP).join(PATH_END);
		pieces.push(piece);
		length += piece.length;
	}
	const packed = new Uint16Array(length);
	let offset = 0;
	for (const piece of pieces) {
		yield;
		for (let i = 0; i < piece.length; i++) packed[offset + i] = piece.charCodeAt(i);
		offset += piece.length;
	}
	return packed;
}

/** Code units turned into a string at once (an argument list has a limit). */
const DECODE_STEP = 8192;

/** The paths of {@link packPaths}. */
export function unpackPaths(packed: Uint16Array): string[] {
	if (packed.length === 0) return [];
	const parts: string[] = [];
	for (let at = 0; at < packed.length; at += DECODE_STEP)
		parts.push(String.fromCharCode(...packed.subarray(at, at + DECODE_STEP)));
	return parts.join('').split(PATH_END);
}

/** Numbers per note in {@link PackedStamps.numbers}. */
const STAMP_NUMBERS = 4;

/** The stamps packed (see {@link PackedStamps}); post them with {@link stampBuffers} transferred. */
export function packStamps(stamps: ReadonlyMap<string, NoteFingerprint>): PackedStamps {
	return drain(packStampsSteps(stamps));
}

/** {@link packStamps} in steps ({@link PACK_STEP} notes a step). */
export function* packStampsSteps(stamps: ReadonlyMap<string, NoteFingerprint>): Generator<void, PackedStamps, void> {
	const numbers = new Float64Array(stamps.size * STAMP_NUMBERS);
	const racy = new Uint8Array(stamps.size);
	const paths: string[] = [];
	for (const [path, stamp] of stamps) {
		const i = paths.length;
		if (i > 0 && i % PACK_STEP === 0) yield;
		const at = i * STAMP_NUMBERS;
		numbers[at] = stamp.size;
		numbers[at + 1] = stamp.mtimeMs;
		numbers[at + 2] = stamp.ctimeMs;
		numbers[at + 3] = stamp.ino;
		racy[i] = stamp.racy ? 1 : 0;
		paths.push(path);
	}
	return { paths: yield* packPathsSteps(paths), numbers, racy };
}

/** The buffers of a build or refresh request (its packed paths and stamps), to transfer rather than copy. */
export function requestBuffers(request: BuildRequest | RefreshRequest): ArrayBuffer[] {
	const { paths, numbers, racy } = request.part.stamps;
	return [request.notes, paths, numbers, racy].map((array) => array.buffer as ArrayBuffer);
}

/** The stamps {@link packStamps} packed, in their order. */
export function unpackStamps(packed: PackedStamps): FingerprintTable {
	const out = new FingerprintTable();
	const { numbers, racy } = packed;
	unpackPaths(packed.paths).forEach((path, i) => {
		const at = i * STAMP_NUMBERS;
		out.set(path, {
			size: numbers[at]!,
			mtimeMs: numbers[at + 1]!,
			ctimeMs: numbers[at + 2]!,
			ino: numbers[at + 3]!,
			racy: racy[i] === 1,
		});
	});
	return out;
}

/** A batch of notes packed into one buffer to transfer (note-batch.ts packs and unpacks it): the notes' bytes end to end, then the rest of each note as JSON. */
export interface NoteBatch {
	buffer: ArrayBuffer;
	/** Where the notes' JSON starts in `buffer` (their bytes end there) and its UTF-8 length. */
	infoAt: number;
	infoLength: number;
	/** Whether the JSON tags the values JSON alone would change (read back with a reviver). */
	tagged: boolean;
}

/** One note as the main thread read it for the worker. */
export interface PostedNote {
	path: string;
	/**
	 * The note's bytes (`Vault#readBinary`; a view into the one buffer its batch came in), or null when it could not be read (`error` says why):
	 * the worker decodes them, so the main thread neither decodes the text nor clones it as a
	 * string, and a text never lives on its heap.
	 */
	bytes: Uint8Array | null;
	error: string | null;
	/** Obsidian's cached metadata (null when not parsed yet, or skipped). */
	metadata: CachedMetadata | null;
	/** The source's `getSkipReason` and `getFrontmatterError`. */
	skipReason: string | null;
	frontmatterError: string | null;
}

/**
 * The part's pieces the worker posts ahead of the main thread's `taken` (which it posts from a turn
 * of its own): a worker thread's port in Node (and Electron) handles every message that arrives
 * while it handles one in the same task, and 130 pieces so held the main thread ~0.3 s at 50k notes.
 */
export const PIECES_IN_FLIGHT = 4;

/** Where the worker saves the part it encoded: the plugin's database for the vault and the part's key in it. */
export interface SaveTarget {
	database: string;
	key: string;
	/** The notes the part covers (the settings tab shows them). */
	notes: number;
}

/** What the main thread posts to a worker (`taken`: it took a `part` piece, the worker may post one more; `save`, `send`, `count` and `helper-failed`: see the module comment). */
export type ToIndexWorker =
	| BuildRequest
	| RefreshRequest
	| { type: 'notes'; batch: NoteBatch }
	| ({ type: 'save' } & SaveTarget)
	| { type: 'send' }
	| { type: 'taken' }
	| { type: 'count'; port: MessagePort }
	| { type: 'helper-failed'; message: string };

/** A worker asking the main thread for the notes at `paths`, handing back the batch buffers it has decoded (a `read` message). */
export type AskForNotes = (paths: string[], buffers: ArrayBuffer[]) => void;

/** What the worker posts back (a `read` hands back the batch buffers it has decoded, to be filled again: batch-buffers.ts). */
export type FromIndexWorker =
	| { type: 'read'; paths: string[]; buffers?: ArrayBuffer[] }
	| { type: 'progress'; done: number; total: number }
	| { type: 'built'; canSave: boolean }
	| { type: 'saved'; counted: number }
	| { type: 'refreshed'; reindexed: number }
	| { type: 'save-failed'; message: string }
	| { type: 'part'; bytes: Uint8Array }
	| { type: 'done'; length: number; notes: number; counted: number }
	| { type: 'failed'; message: string };

/** An error's message, for a message across the threads. */
export function messageOf(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}
