/**
 * The main thread's side of the index worker: it starts the worker from the bundle esbuild inlined
 * into main.js (a Blob URL: no file beside main.js, no Node module, so mobile runs it too), answers
 * its `read` requests with the notes' bytes (`readBinary`) and Obsidian's cached metadata in batches, tells
 * it where the part it encoded goes (saved into IndexedDB by the worker, or sent here) and resolves
 * with the outcome. Where no worker starts (no `Worker`, a page
 * whose policy refuses it, a test without the bundle) the caller builds on the main thread.
 */
import { searchMetadataOf } from '../core/search/extract';
import type { TimeSlice } from '../core/steps';
import type { ObsidianNoteSource } from './source';
import type { BuildRequest, FromIndexWorker, PostedNote, SaveTarget, ToIndexWorker } from './worker-protocol';
import { messageOf, requestBuffers } from './worker-protocol';
import { BatchBuffers } from './batch-buffers';

/** The worker's bundle, inlined by esbuild.config.mjs (`define`); undefined outside the built plugin. */
declare const VAULT_QUERY_INDEX_WORKER: string | undefined;

/** Notes read at once (`readBinary`) and posted to the worker in one message. */
const POST_BATCH = 32; // why: a structured clone of ~32 notes is well under a millisecond; few messages per window.

/** As much of a Web Worker as the plugin uses (a Node worker thread behind the same shape in tests). */
export interface IndexWorker {
	postMessage(message: ToIndexWorker, transfer?: Transferable[]): void;
	onmessage: ((event: { data: FromIndexWorker }) => void) | null;
	onerror: ((event: unknown) => void) | null;
	terminate(): void;
}

/** Notes from which a build is shared with a counting worker. */
const COUNTING_WORKER_FROM = 5_000; // why: a second worker's start (its bundle parsed, ~50 ms) is worth it only where a build takes seconds.

/**
 * Cores from which a build is shared with a counting worker: one is left to the main thread. On two
 * cores two workers held both while the main thread read the notes for them, and the build was no
 * faster (50k notes: 17.5 s with one or two workers in Node; 28.6–32.2 s with one, 30.8–36.1 s
 * with two in Chromium), with longer main-thread turns (two workers: 76–197 ms, one: 50–153 ms).
 */
const COUNTING_WORKER_CORES = 3;

/**
 * Where the worker's code comes from and how a worker is made of it, the cores the machine has
 * and the notes from which a second, counting worker shares a build (tests replace them).
 */
export const indexWorkers: {
	code: string | null;
	create: (code: string) => IndexWorker;
	cores: number;
	countingFrom: number;
} = {
	code: typeof VAULT_QUERY_INDEX_WORKER === 'string' ? VAULT_QUERY_INDEX_WORKER : null,
	create: blobWorker,
	cores: typeof navigator === 'object' ? (navigator.hardwareConcurrency ?? 1) : 1,
	countingFrom: COUNTING_WORKER_FROM,
};

/**
 * A counting worker to share a build of `notes` notes with, where one helps: a vault large enough,
 * three cores or more ({@link COUNTING_WORKER_CORES}), and channels between workers. Null otherwise, or when it does not start (the
 * builder then counts every note itself).
 */
export function startCountingWorker(notes: number): IndexWorker | null {
	if (
		notes < indexWorkers.countingFrom ||
		indexWorkers.cores < COUNTING_WORKER_CORES ||
		typeof MessageChannel !== 'function'
	)
		return null;
	const worker = startIndexWorker();
	return typeof worker === 'string' ? null : worker;
}

/** A Web Worker running `code`, from a Blob URL (revoked when it is terminated). */
function blobWorker(code: string): IndexWorker {
	const url = URL.createObjectURL(new Blob([code], { type: 'text/javascript' }));
	let worker: Worker;
	try {
		worker = new Worker(url);
	} catch (error) {
		URL.revokeObjectURL(url);
		throw error;
	}
	const terminate = worker.terminate.bind(worker);
	worker.terminate = () => {
		terminate();
		URL.revokeObjectURL(url);
	};
	return worker as unknown as IndexWorker;
}

/** A started index worker, or why none could be started. */
export function startIndexWorker(): IndexWorker | string {
	const code = indexWorkers.code;
	if (code === null) return 'no worker bundle in this build';
	if (indexWorkers.create === blobWorker && (typeof Worker !== 'function' || typeof Blob !== 'function'))
		return 'Web Workers are not available';
	try {
		return indexWorkers.create(code);
	} catch (error) {
		return `the worker did not start (${messageOf(error)})`;
	}
}

/** A note's bytes (`readBinary`), or why they could not be read. */
async function readNote(source: ObsidianNoteSource, path: string): Promise<Uint8Array | string> {
	try {
		return new Uint8Array(await source.readBinary(path));
	} catch (error) {
		return messageOf(error);
	}
}

/**
 * Notes as the worker needs them: their bytes copied end to end into one buffer of our own, to
 * transfer (a buffer Obsidian handed us stays whole, and the worker — the build's critical path —
 * neither copies nor allocates them again; one buffer a batch, not one a note: at 50k notes the
 * main thread's collector swept a fresh buffer per note in its pauses; a buffer the worker handed
 * back where it can, batch-buffers.ts), their metadata and skip reasons, read now.
 */
async function postedNotes(
	source: ObsidianNoteSource,
	paths: readonly string[],
	buffers: BatchBuffers,
): Promise<{ notes: PostedNote[]; buffer: ArrayBuffer }> {
	const read = await Promise.all(paths.map((path) => readNote(source, path)));
	const buffer = buffers.take(read.reduce((n, bytes) => n + (typeof bytes === 'string' ? 0 : bytes.length), 0));
	let at = 0;
	const notes = paths.map((path, i): PostedNote => {
		const got = read[i]!;
		let bytes: Uint8Array | null = null;
		if (typeof got !== 'string') {
			bytes = new Uint8Array(buffer, at, got.length);
			bytes.set(got);
			at += got.length;
		}
		const skipReason = source.getSkipReason(path);
		return {
			path,
			bytes,
			error: typeof got === 'string' ? got : null,
			metadata: skipReason === null ? searchMetadataOf(source.getMetadata(path)) : null,
			skipReason,
			frontmatterError: skipReason === null ? source.getFrontmatterError(path) : null,
		};
	});
	return { notes, buffer };
}

/**
 * A build's outcome: the part's bytes, in the pieces they came in — or null when the worker saved
 * the part into IndexedDB itself (none of it came here) — why the worker's save failed (null when it
 * did not fail), and the notes the counting worker counted.
 */
export interface WorkerBuild {
	pieces: Uint8Array[] | null;
	saveFailed: string | null;
	counted: number;
}

/** Where the part a worker encoded goes, asked once it is encoded (`canSave`: the worker has IndexedDB): saved there by the worker, or (null) sent here. */
export type PartDestination = (canSave: boolean) => Promise<SaveTarget | null>;

/**
 * Build the search index in `worker` (sharing it with `counter`, a counting worker, when given)
 * and resolve with where its saved part went; rejects when the builder fails (a counting worker's
 * failure only leaves its notes to the builder). The main thread only reads the notes the workers
 * ask for, in `slice`'s time slices, and posts them; it runs no step of the index build.
 */
export function buildInWorker(
	worker: IndexWorker,
	request: BuildRequest,
	source: ObsidianNoteSource,
	slice: TimeSlice,
	destination: PartDestination,
	onProgress?: (done: number, total: number) => void,
	counter: IndexWorker | null = null,
): Promise<WorkerBuild> {
	return new Promise((resolve, reject) => {
		const pieces: Uint8Array[] = [];
		let received = 0;
		let saveFailed: string | null = null;
		/** Notes asked for, each with the worker that asked. */
		const queue: { path: string; to: IndexWorker }[] = [];
		const buffers = new BatchBuffers();
		let reading = false;
		const pump = async (): Promise<void> => {
			reading = true;
			try {
				while (queue.length > 0) {
					const to = queue[0]!.to;
					let n = 0;
					while (n < POST_BATCH && n < queue.length && queue[n]!.to === to) n++;
					const paths = queue.splice(0, n).map((asked) => asked.path);
					const { notes, buffer } = await postedNotes(source, paths, buffers);
					to.postMessage({ type: 'notes', notes }, [buffer]);
					await slice.pauseIfUsed();
				}
			} catch (error) {
				reject(error instanceof Error ? error : new Error(messageOf(error)));
			} finally {
				reading = false;
			}
		};
		/** A worker's `read`: the buffers it hands back kept for the next batches, its notes queued for it. */
		const serveReads = (to: IndexWorker, read: { paths: readonly string[]; buffers?: ArrayBuffer[] }): void => {
			buffers.giveBack(read.buffers);
			for (const path of read.paths) queue.push({ path, to });
			if (!reading) void pump();
		};
		const place = (canSave: boolean): void => {
			destination(canSave).then(
				(target) => worker.postMessage(target === null ? { type: 'send' } : { type: 'save', ...target }),
				(error: unknown) => reject(error instanceof Error ? error : new Error(messageOf(error))),
			);
		};
		worker.onmessage = ({ data }) => {
			if (data.type === 'read') serveReads(worker, data);
			else if (data.type === 'progress') onProgress?.(data.done, data.total);
			else if (data.type === 'encoded') place(data.canSave);
			else if (data.type === 'saved') resolve({ pieces: null, saveFailed: null, counted: data.counted });
			else if (data.type === 'save-failed') saveFailed = data.message;
			else if (data.type === 'part') {
				pieces.push(data.bytes);
				received += data.bytes.length;
				// The next piece asked for from a turn of its own: a worker thread's messages that arrive while some are
				// being handled are handled in the same task (Node's and Electron's ports), 130 pieces in one ~0.3 s block.
				void slice.pause().then(() => worker.postMessage({ type: 'taken' }));
			} else if (data.type === 'failed') reject(new Error(data.message));
			else if (received === data.length) resolve({ pieces, saveFailed, counted: data.counted });
			else reject(new Error(`the worker's part came short (${received} of ${data.length} bytes)`));
		};
		worker.onerror = (event) => reject(new Error(errorMessage(event, 'the worker failed to run')));
		const transfer: Transferable[] = requestBuffers(request);
		if (counter !== null) {
			const channel = new MessageChannel();
			counter.onmessage = ({ data }) => {
				if (data.type === 'read') serveReads(counter, data);
			};
			// The builder counts the rest itself: told here, as a dead worker sends nothing more.
			counter.onerror = (event) =>
				worker.postMessage({
					type: 'helper-failed',
					message: errorMessage(event, 'the counting worker failed'),
				});
			counter.postMessage({ type: 'count', port: channel.port2 }, [channel.port2]);
			request = { ...request, helper: channel.port1 };
			transfer.push(channel.port1);
		}
		worker.postMessage(request, transfer);
	});
}

/** The message of a worker's error event, or `fallback`. */
function errorMessage(event: unknown, fallback: string): string {
	const message = (event as { message?: unknown } | null)?.message;
	return typeof message === 'string' && message !== '' ? message : fallback;
}
