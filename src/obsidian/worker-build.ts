/**
 * The index worker's side (worker-entry.ts wires it to the worker's globals; tests run the bundled
 * entry in a Node worker thread): the search index is built with core's `SearchIndex.build` over
 * a NoteSource serving the notes the main thread posts (posted-notes.ts), with the later notes
 * counted by a second worker when there is one (worker-count.ts, counted-share.ts), and encoded
 * into the saved part with the codec the IndexedDB save uses: into IndexedDB by the worker itself
 * where it can, else sent to the main thread (worker-part-out.ts). Nothing here imports `obsidian` or the DOM: it runs in
 * a Web Worker on desktop and mobile.
 */
import type { NoteFingerprint } from '../core/snapshot/codec';
import { SearchIndex } from '../core/search/search-index';
import { CountedShare, shareStart } from './counted-share';
import { PIECE_BYTES } from './part-pieces';
import { unpackNoteBatch } from './note-batch';
import { PostedNotes } from './posted-notes';
import { BuiltPart, type PostToMain } from './worker-part-out';
import { refreshPart } from './worker-refresh';
import { serveCount, type CounterPort } from './worker-count';
import {
	messageOf,
	packPaths,
	type AskForNotes,
	type BuildRequest,
	type CountRequest,
	type FromCounter,
	type PostedNote,
	type ToIndexWorker,
	type WorkerPort,
	unpackStamps,
} from './worker-protocol';

/** The builder's end of its channel to the counting worker. */
type BuilderPort = WorkerPort<FromCounter, CountRequest>;

/** Notes the build reads at once (its chunks). */
const BUILD_READ_BATCH = 64;

/** Progress messages a build posts at most (besides its last). */
const PROGRESS_STEPS = 100; // why: a notice's percentage moves by one; a message per read batch was ~800 at 50k notes.

/** A progress callback that posts when the build has got a hundredth of the notes further (and at the end). */
export function progressPoster(post: PostToMain): (done: number, total: number) => void {
	let next = 0;
	return (done, total) => {
		if (done < next && done < total) return;
		next = done + Math.max(1, Math.ceil(total / PROGRESS_STEPS));
		post({ type: 'progress', done, total });
	};
}

/**
 * The counting worker's share of the build, when the request brought a channel to one: the later
 * notes, about {@link BUILDER_SHARE} of the bytes left to the builder, handed over; null when there
 * is nothing to share.
 */
function shareWithCounter(
	request: BuildRequest,
	source: PostedNotes,
	stamps: ReadonlyMap<string, NoteFingerprint>,
	port: BuilderPort,
): CountedShare | null {
	const order = source.readingOrder();
	const from = shareStart(order, (path) => stamps.get(path)?.size);
	if (from >= order.length) return null;
	const share = new CountedShare(order, from, source);
	port.onmessage = ({ data }) => (data.type === 'counted' ? share.receive(data) : share.fail());
	const notes = packPaths(order.slice(from));
	port.postMessage({ type: 'count', settings: request.settings, vault: request.vault, notes }, [notes.buffer]);
	return share;
}

/** Build the index over `source` (with the counting worker's counts, when `share`). */
function buildIndex(
	request: BuildRequest,
	source: PostedNotes,
	share: CountedShare | null,
	post: PostToMain,
): Promise<SearchIndex> {
	return SearchIndex.build(source, request.settings, {
		sliceMs: Infinity, // a worker has no frame to keep: it pauses only where it waits for notes
		readBatch: BUILD_READ_BATCH,
		onProgress: progressPoster(post),
		...(share === null ? {} : { counted: share }),
	});
}

/**
 * A worker's message handler. As the builder: a `build` starts the build (shared with a counting
 * worker when it brings a channel to one), `notes` feed it; once the index is built it posts
 * `built`, and the main thread says where its part goes: `save` (the worker encodes it into
 * IndexedDB) or `send` (in pieces of `pieceBytes`, each after a `taken`) — worker-part-out.ts; or
 * the error with `failed`. As the counting worker: `count` brings its channel to the builder
 * (worker-count.ts), and `notes` feed the count. A `refresh` re-saves the saved part
 * (worker-refresh.ts), `notes` feeding it the notes changed since it was saved.
 */
export function serveIndexBuild(post: PostToMain, pieceBytes = PIECE_BYTES): (message: ToIndexWorker) => void {
	let receive: ((notes: PostedNote[]) => void) | null = null;
	/** The index once built (null before). */
	let built: BuiltPart | null = null;
	let share: CountedShare | null = null;
	let counterFailed = false;
	const ask: AskForNotes = (paths, buffers) => post({ type: 'read', paths, buffers }, buffers);
	const fail = (error: unknown): void => post({ type: 'failed', message: messageOf(error) });
	return (message) => {
		if (message.type === 'notes') return receive?.(unpackNoteBatch(message.batch));
		if (message.type === 'taken') return built?.taken();
		if (message.type === 'send') return built?.send();
		if (message.type === 'save') return void built?.save(message).catch(fail);
		if (message.type === 'count') {
			receive = serveCount(message.port as unknown as CounterPort, ask);
			return;
		}
		if (message.type === 'helper-failed') {
			counterFailed = true;
			return share?.fail();
		}
		if (message.type === 'refresh') {
			const notes = new PostedNotes(message, ask, []); // no reading order: only the notes fetched are read
			receive = (posted) => notes.receive(posted);
			refreshPart(message, notes).then((reindexed) => post({ type: 'refreshed', reindexed }), fail);
			return;
		}
		const notes = new PostedNotes(message, ask);
		receive = (posted) => notes.receive(posted);
		const stamps = unpackStamps(message.part.stamps);
		const port = message.helper as unknown as BuilderPort | undefined;
		share = port === undefined || counterFailed ? null : shareWithCounter(message, notes, stamps, port);
		const shared = share;
		buildIndex(message, notes, shared, post).then((index) => {
			const counted = shared?.counted ?? 0;
			const header = { tool: message.part.tool, settings: message.part.settings, stamps };
			built = new BuiltPart(index, header, post, notes.listNotes().length, counted, pieceBytes);
			post({ type: 'built', canSave: BuiltPart.canSave() });
		}, fail);
	};
}
