/**
 * The main thread's answer to the index workers' `read` requests (worker-host.ts): the notes read
 * (`readBinary`) with Obsidian's cached metadata and skip reasons, in batches, in a time slice's
 * turns, each batch posted to the worker that asked for it. A build and a re-save serve their
 * workers the same way.
 */
import { searchMetadataOf } from '../core/search/extract';
import type { TimeSlice } from '../core/steps';
import { BatchBuffers } from './batch-buffers';
import { packNoteBatch } from './note-batch';
import type { ObsidianNoteSource } from './source';
import { messageOf, type NoteBatch, type PostedNote, type ToIndexWorker } from './worker-protocol';

/** A worker that asks for notes, as much of it as the server uses (worker-host.ts's IndexWorker). */
export interface AskingWorker {
	postMessage(message: ToIndexWorker, transfer?: Transferable[]): void;
}

/** Notes read at once (`readBinary`) and posted to the worker in one message. */
export const POST_BATCH = 32; // why: a batch packs in well under a millisecond; few messages per read-ahead window.

/** A note's bytes (`readBinary`), or why they could not be read. */
async function readNote(source: ObsidianNoteSource, path: string): Promise<Uint8Array | string> {
	try {
		return new Uint8Array(await source.readBinary(path));
	} catch (error) {
		return messageOf(error);
	}
}

/**
 * Notes as the worker needs them, read now: their bytes (`readBinary`), metadata and skip reasons,
 * packed into one buffer of our own to transfer (note-batch.ts) — a buffer Obsidian handed us stays
 * whole, and the worker, the build's critical path, neither copies nor allocates them again; one
 * buffer a batch, not one a note: at 50k notes the main thread's collector swept a fresh buffer per
 * note in its pauses; a buffer the worker handed back where it can, batch-buffers.ts.
 */
async function postedNotes(
	source: ObsidianNoteSource,
	paths: readonly string[],
	buffers: BatchBuffers,
): Promise<NoteBatch> {
	const read = await Promise.all(paths.map((path) => readNote(source, path)));
	const notes = paths.map((path, i): PostedNote => {
		const got = read[i]!;
		const skipReason = source.getSkipReason(path);
		return {
			path,
			bytes: typeof got === 'string' ? null : got,
			error: typeof got === 'string' ? got : null,
			metadata: skipReason === null ? searchMetadataOf(source.getMetadata(path)) : null,
			skipReason,
			frontmatterError: skipReason === null ? source.getFrontmatterError(path) : null,
		};
	});
	return packNoteBatch(notes, (bytes) => buffers.take(bytes));
}

/** Reads the notes workers ask for and posts them back, one batch at a time (see the module comment). */
export class NoteServer {
	/** Notes asked for, each with the worker that asked. */
	private readonly queue: { path: string; to: AskingWorker }[] = [];
	private readonly buffers = new BatchBuffers();
	private reading = false;

	/** `slice` paces the reads; `failed` is told when a read or a post throws. */
	constructor(
		private readonly source: ObsidianNoteSource,
		private readonly slice: TimeSlice,
		private readonly failed: (error: Error) => void,
	) {}

	/** A worker's `read`: the buffers it hands back kept for the next batches, its notes queued for it. */
	serve(to: AskingWorker, read: { paths: readonly string[]; buffers?: ArrayBuffer[] }): void {
		this.buffers.giveBack(read.buffers);
		for (const path of read.paths) this.queue.push({ path, to });
		if (!this.reading) void this.pump();
	}

	/** Reads and posts the queued notes, a batch for one worker at a time, pausing when the slice is used. */
	private async pump(): Promise<void> {
		this.reading = true;
		const queue = this.queue;
		try {
			while (queue.length > 0) {
				const to = queue[0]!.to;
				let n = 0;
				while (n < POST_BATCH && n < queue.length && queue[n]!.to === to) n++;
				const paths = queue.splice(0, n).map((asked) => asked.path);
				const batch = await postedNotes(this.source, paths, this.buffers);
				to.postMessage({ type: 'notes', batch }, [batch.buffer]);
				await this.slice.pauseIfUsed();
			}
		} catch (error) {
			this.failed(error instanceof Error ? error : new Error(messageOf(error)));
		} finally {
			this.reading = false;
		}
	}
}
