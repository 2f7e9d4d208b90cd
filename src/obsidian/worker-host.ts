/**
 * The main thread's side of the index worker: it starts the worker from the bundle esbuild inlined
 * into main.js (a Blob URL: no file beside main.js, no Node module, so mobile runs it too), answers
 * its `read` requests with the notes' bytes (`readBinary`) and Obsidian's cached metadata in batches, tells
 * it where the part it encoded goes (saved into IndexedDB by the worker, or sent here) and resolves
 * with the outcome. Where no worker starts (no `Worker`, a page
 * whose policy refuses it, a test without the bundle) the caller builds on the main thread.
 */
import type { TimeSlice } from '../core/steps';
import { NoteServer } from './note-server';
import type { ObsidianNoteSource } from './source';
import type { BuildRequest, FromIndexWorker, RefreshRequest, SaveTarget, ToIndexWorker } from './worker-protocol';
import { messageOf, requestBuffers } from './worker-protocol';

/** The worker's bundle, inlined by esbuild.config.mjs (`define`); undefined outside the built plugin. */
declare const VAULT_QUERY_INDEX_WORKER: string | undefined;

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

/** Where the part of the index a worker built goes, asked once it is built (`canSave`: the worker has IndexedDB): saved there by the worker, or (null) sent here. */
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
		const server = new NoteServer(source, slice, reject);
		const place = (canSave: boolean): void => {
			destination(canSave).then(
				(target) => worker.postMessage(target === null ? { type: 'send' } : { type: 'save', ...target }),
				(error: unknown) => reject(error instanceof Error ? error : new Error(messageOf(error))),
			);
		};
		worker.onmessage = ({ data }) => {
			if (data.type === 'read') server.serve(worker, data);
			else if (data.type === 'progress') onProgress?.(data.done, data.total);
			else if (data.type === 'built') place(data.canSave);
			else if (data.type === 'saved') resolve({ pieces: null, saveFailed: null, counted: data.counted });
			else if (data.type === 'save-failed') saveFailed = data.message;
			else if (data.type === 'part') {
				pieces.push(data.bytes);
				received += data.bytes.length;
				// The next piece asked for from a turn of its own: a worker thread's messages that arrive while some are
				// being handled are handled in the same task (Node's and Electron's ports), 130 pieces in one ~0.3 s block.
				void slice.pause().then(() => worker.postMessage({ type: 'taken' }));
			} else if (data.type === 'failed') reject(new Error(data.message));
			else if (data.type === 'done') {
				if (received === data.length) resolve({ pieces, saveFailed, counted: data.counted });
				else reject(new Error(`the worker's part came short (${received} of ${data.length} bytes)`));
			}
		};
		worker.onerror = (event) => reject(new Error(errorMessage(event, 'the worker failed to run')));
		const transfer: Transferable[] = requestBuffers(request);
		if (counter !== null) {
			const channel = new MessageChannel();
			counter.onmessage = ({ data }) => {
				if (data.type === 'read') server.serve(counter, data);
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

/**
 * Re-save the saved part in `worker` (worker-refresh.ts): it loads the part, re-indexes the notes
 * `request`'s stats say changed, which the main thread reads for it in `slice`'s time slices, and
 * saves the part again. Resolves with the notes it re-indexed; rejects with why it could not (the caller then
 * saves on the main thread).
 */
export function refreshSavedPart(
	worker: IndexWorker,
	request: RefreshRequest,
	source: ObsidianNoteSource,
	slice: TimeSlice,
): Promise<number> {
	return new Promise((resolve, reject) => {
		const server = new NoteServer(source, slice, reject);
		worker.onmessage = ({ data }) => {
			if (data.type === 'read') server.serve(worker, data);
			else if (data.type === 'refreshed') resolve(data.reindexed);
			else if (data.type === 'failed') reject(new Error(data.message));
		};
		worker.onerror = (event) => reject(new Error(errorMessage(event, 'the worker failed to run')));
		worker.postMessage(request, requestBuffers(request));
	});
}

/** The message of a worker's error event, or `fallback`. */
function errorMessage(event: unknown, fallback: string): string {
	const message = (event as { message?: unknown } | null)?.message;
	return typeof message === 'string' && message !== '' ? message : fallback;
}
