/**
 * How the part an index worker encoded leaves it (worker-build.ts): saved into the plugin's
 * IndexedDB by the worker itself — the main thread then restores it from there, as at a restart,
 * and none of its bytes cross to the main thread — or, where the worker cannot save (no IndexedDB
 * in the worker, or its save failed), posted to the main thread in pieces.
 */
import { IndexedDbStore } from './idb-store';
import { partPieces, PIECE_BYTES } from './part-pieces';
import { messageOf, PIECES_IN_FLIGHT, type FromIndexWorker, type SaveTarget } from './worker-protocol';

/** Posts a message to the main thread (with the buffers to transfer). */
export type PostToMain = (message: FromIndexWorker, transfer?: ArrayBuffer[]) => void;

/** The part a worker encoded, waiting for the main thread to say where it goes. */
export class EncodedPart {
	/** Posts the next piece, or `done` after the last (null before sending starts, and after `done`). */
	private postNext: (() => void) | null = null;

	/** `chunks`: the part's bytes as the encoder made them; `notes` and `counted` go in the last message. */
	constructor(
		private readonly chunks: readonly Uint8Array[],
		private readonly post: PostToMain,
		private readonly notes: number,
		private readonly counted: number,
		private readonly pieceBytes = PIECE_BYTES,
	) {}

	/** Whether this worker can save the part itself (a Web Worker has IndexedDB; a Node worker thread has none). */
	static canSave(): boolean {
		return typeof indexedDB !== 'undefined' && typeof IDBKeyRange !== 'undefined';
	}

	/** Save the part into `target` and post `saved`; when that fails, post `save-failed` and send the part instead. */
	async save(target: SaveTarget): Promise<void> {
		const store = new IndexedDbStore(target.database);
		try {
			await store.save(target.key, this.chunks, target.notes);
			this.post({ type: 'saved', counted: this.counted });
		} catch (error) {
			this.post({ type: 'save-failed', message: messageOf(error) });
			this.send();
		} finally {
			store.close();
		}
	}

	/**
	 * Post the part in pieces of `pieceBytes` (each transferred: the main thread never receives one
	 * 130 MB buffer, which V8 answers with a collection of the whole heap at once), a few ahead of
	 * the main thread's `taken` ({@link PIECES_IN_FLIGHT}), then `done`.
	 */
	send(): void {
		const pieces = partPieces(this.chunks, this.pieceBytes);
		let length = 0;
		this.postNext = () => {
			const piece = pieces.next();
			if (piece.done === true) {
				this.postNext = null;
				this.post({ type: 'done', length, notes: this.notes, counted: this.counted });
				return;
			}
			length += piece.value.length; // before it goes: a transferred piece is empty here
			this.post({ type: 'part', bytes: piece.value }, [piece.value.buffer as ArrayBuffer]);
		};
		for (let n = 0; n < PIECES_IN_FLIGHT; n++) this.postNext?.();
	}

	/** The main thread took a piece: the next one goes. */
	taken(): void {
		this.postNext?.();
	}
}
