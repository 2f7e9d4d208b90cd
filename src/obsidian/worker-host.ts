/**
 * The main thread's side of the index worker: it starts the worker from the bundle esbuild inlined
 * into main.js (a Blob URL: no file beside main.js, no Node module, so mobile runs it too), answers
 * its `read` requests with the notes' bytes (`readBinary`) and Obsidian's cached metadata in batches, and
 * resolves with the part's bytes the worker encoded. Where no worker starts (no `Worker`, a page
 * whose policy refuses it, a test without the bundle) the caller builds on the main thread.
 */
import { searchMetadataOf } from '../core/search/extract';
import type { TimeSlice } from '../core/steps';
import type { ObsidianNoteSource } from './source';
import type { BuildRequest, FromIndexWorker, PostedNote, ToIndexWorker } from './worker-protocol';
import { messageOf, requestBuffers } from './worker-protocol';

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

/** Where the worker's code comes from and how a worker is made of it (tests replace both). */
export const indexWorkers: { code: string | null; create: (code: string) => IndexWorker } = {
	code: typeof VAULT_QUERY_INDEX_WORKER === 'string' ? VAULT_QUERY_INDEX_WORKER : null,
	create: blobWorker,
};

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
 * A note as the worker needs it: its bytes (`readBinary`, copied into a buffer of our own, which
 * is transferred: a buffer Obsidian handed us stays whole, and the worker — the build's critical
 * path — neither copies nor allocates them again), metadata and skip reasons, read now.
 */
async function postedNote(source: ObsidianNoteSource, path: string): Promise<PostedNote> {
	let bytes: ArrayBuffer | null = null;
	let error: string | null = null;
	try {
		bytes = (await source.readBinary(path)).slice(0);
	} catch (e) {
		error = messageOf(e);
	}
	const skipReason = source.getSkipReason(path);
	return {
		path,
		bytes,
		error,
		metadata: skipReason === null ? searchMetadataOf(source.getMetadata(path)) : null,
		skipReason,
		frontmatterError: skipReason === null ? source.getFrontmatterError(path) : null,
	};
}

/** The notes' own copies of their bytes (postedNote), to transfer. */
function ownBuffers(notes: readonly PostedNote[]): ArrayBuffer[] {
	return notes.flatMap((note) => (note.bytes === null ? [] : [note.bytes]));
}

/**
 * Build the search index in `worker` and resolve with its saved part's bytes, in the pieces they
 * came in (part-pieces.ts); rejects when the worker fails. The main thread only reads the notes
 * the worker asks for, in `slice`'s time slices, and posts them; it runs no step of the index build.
 */
export function buildInWorker(
	worker: IndexWorker,
	request: BuildRequest,
	source: ObsidianNoteSource,
	slice: TimeSlice,
	onProgress?: (done: number, total: number) => void,
): Promise<Uint8Array[]> {
	return new Promise((resolve, reject) => {
		const pieces: Uint8Array[] = [];
		let received = 0;
		const queue: string[] = [];
		let reading = false;
		const pump = async (): Promise<void> => {
			reading = true;
			try {
				while (queue.length > 0) {
					const paths = queue.splice(0, POST_BATCH);
					const notes = await Promise.all(paths.map((path) => postedNote(source, path)));
					worker.postMessage({ type: 'notes', notes }, ownBuffers(notes));
					await slice.pauseIfUsed();
				}
			} catch (error) {
				reject(error instanceof Error ? error : new Error(messageOf(error)));
			} finally {
				reading = false;
			}
		};
		worker.onmessage = ({ data }) => {
			if (data.type === 'read') {
				queue.push(...data.paths);
				if (!reading) void pump();
			} else if (data.type === 'progress') onProgress?.(data.done, data.total);
			else if (data.type === 'part') {
				pieces.push(data.bytes);
				received += data.bytes.length;
				// The next piece asked for from a turn of its own: a worker thread's messages that arrive while some are
				// being handled are handled in the same task (Node's and Electron's ports), 130 pieces in one ~0.3 s block.
				void slice.pause().then(() => worker.postMessage({ type: 'taken' }));
			} else if (data.type === 'failed') reject(new Error(data.message));
			else if (received === data.length) resolve(pieces);
			else reject(new Error(`the worker's part came short (${received} of ${data.length} bytes)`));
		};
		worker.onerror = (event) => {
			const message = (event as { message?: unknown } | null)?.message;
			reject(new Error(typeof message === 'string' && message !== '' ? message : 'the worker failed to run'));
		};
		worker.postMessage(request, requestBuffers(request));
	});
}
