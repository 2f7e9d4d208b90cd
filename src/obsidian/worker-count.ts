/**
 * The counting worker's side of a build shared by two index workers: it reads the share of the
 * notes the builder names (asking the main thread for them as the builder does) and counts each
 * with core's `DetachedCounter`, then sends the counts to the builder in batches, which adds them
 * to its index in their turn (core/search/counted-notes.ts). Counting the words of a note is most
 * of a build's work: two workers halve the build's critical path on a machine with two cores.
 */
import { DetachedCounter, type CountedNote } from '../core/search/counted-notes';
import { FIELD_COUNT } from '../core/search/inverted-index';
import { resolveSearchSettings } from '../core/search/settings';
import { PostedNotes } from './posted-notes';
import {
	batchBuffers,
	messageOf,
	unpackPaths,
	type AskForNotes,
	type CountedBatch,
	type CountRequest,
	type FromCounter,
	type PostedNote,
	type WorkerPort,
} from './worker-protocol';

/** Notes read and counted at once, and sent to the builder in one batch. */
const COUNT_BATCH = 64; // why: as the builder's own read batch; a batch is ~0.2 MB of columns.

/** The counting worker's end of its channel to the builder. */
export type CounterPort = WorkerPort<CountRequest, FromCounter>;

/** A batch being filled: the counted notes' columns grow as notes are added. */
class BatchColumns {
	readonly notes: PostedNote[] = [];
	readonly infos: CountedBatch['infos'] = [];
	private termIds: number[] = [];
	private tfs: number[] = [];
	private ends: number[] = [];
	private fieldLen: number[] = [];

	/** A note not counted: skipped (its reasons) or unreadable (its error). */
	skip(note: PostedNote): void {
		this.notes.push(note);
		this.infos.push(null);
	}

	/** A note counted (its columns copied out of the counter's scratch). */
	add(note: PostedNote, counted: CountedNote): void {
		this.notes.push(note);
		this.infos.push(counted.info);
		for (let i = 0; i < counted.terms.length; i++) {
			this.termIds.push(counted.terms[i]!);
			this.tfs.push(counted.tfs[i]! >>> 0);
		}
		this.ends.push(this.termIds.length);
		for (let f = 0; f < FIELD_COUNT; f++) this.fieldLen.push(counted.fieldLen[f]!);
	}

	/** The batch to send, with the terms new since the last. */
	batch(terms: string[]): CountedBatch {
		return {
			type: 'counted',
			terms,
			notes: this.notes,
			infos: this.infos,
			termIds: Uint32Array.from(this.termIds),
			tfs: Uint32Array.from(this.tfs),
			ends: Uint32Array.from(this.ends),
			fieldLen: Uint32Array.from(this.fieldLen),
		};
	}
}

/** What a note read for counting says of itself: its path, skip reasons and read error (no bytes, no metadata). */
function noteOf(source: PostedNotes, path: string, error: string | null): PostedNote {
	const skipReason = source.getSkipReason(path);
	const frontmatterError = skipReason === null ? source.getFrontmatterError(path) : null;
	return { path, bytes: null, error, metadata: null, skipReason, frontmatterError };
}

/** Count every note of `request` read through `source`, sending the batches over `port`. */
async function countShare(request: CountRequest, source: PostedNotes, port: CounterPort): Promise<void> {
	const counter = new DetachedCounter(resolveSearchSettings(request.settings));
	const order = source.readingOrder();
	for (let i = 0; i < order.length; i += COUNT_BATCH) {
		const chunk = order.slice(i, i + COUNT_BATCH);
		const texts = await Promise.all(chunk.map((path) => source.read(path).catch((e: unknown) => e)));
		const columns = new BatchColumns();
		chunk.forEach((path, k) => {
			const text = texts[k];
			const note = noteOf(source, path, typeof text === 'string' ? null : messageOf(text));
			// What the builder would index: neither a skipped note nor one it could not read.
			if (note.skipReason !== null || typeof text !== 'string') columns.skip(note);
			else columns.add(note, counter.count({ path, text, metadata: source.getMetadata(path) }));
		});
		const batch = columns.batch(counter.newTerms());
		port.postMessage(batch, batchBuffers(batch));
	}
}

/**
 * The counting worker's handler of the channel `port` (the main thread's `count` message brought
 * it): the builder's request starts the count; the notes the main thread posts go to the returned
 * `receive`. A failure is sent to the builder, which counts the rest itself.
 */
export function serveCount(port: CounterPort, ask: AskForNotes): (notes: PostedNote[]) => void {
	let source: PostedNotes | null = null;
	port.onmessage = ({ data: request }) => {
		const order = unpackPaths(request.notes);
		const notes = new PostedNotes(request, ask, order);
		source = notes;
		// Not closed when done: the builder may still be taking the last batches (the main thread ends the worker).
		countShare(request, notes, port).catch((error: unknown) =>
			port.postMessage({ type: 'failed', message: messageOf(error) }),
		);
	};
	return (notes) => source?.receive(notes);
}
