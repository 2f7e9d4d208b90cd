/**
 * How the part an index worker built leaves it (worker-build.ts): encoded straight into the
 * plugin's IndexedDB by the worker itself, its large sections made a MB at a time as the records
 * are put (never held whole) — the main thread then restores it from there, as at a restart, and
 * none of its bytes cross to the main thread — or, where the worker cannot save (no IndexedDB in
 * the worker, or its save failed), encoded whole and posted to the main thread in pieces.
 */
import { encodePartPiecesSteps, sectionBytes, streamPieces, type PartPiece } from '../core/snapshot/part-codec';
import { searchSourcesSteps } from '../core/snapshot/search-part';
import type { NoteFingerprint } from '../core/snapshot/codec';
import type { SearchIndex } from '../core/search/search-index';
import { drain } from '../core/steps';
import { browserCodecHost } from './browser-codec';
import { IndexedDbStore } from './idb-store';
import { partPieces, PIECE_BYTES } from './part-pieces';
import { messageOf, PIECES_IN_FLIGHT, type FromIndexWorker, type SaveTarget } from './worker-protocol';

/** Posts a message to the main thread (with the buffers to transfer). */
export type PostToMain = (message: FromIndexWorker, transfer?: ArrayBuffer[]) => void;

/** The saved part's header as the build request gave it: its build stamp, settings string and every note's stat. */
export interface PartHeaderInput {
	tool: string;
	settings: string;
	stamps: ReadonlyMap<string, NoteFingerprint>;
}

/** The index a worker built, waiting for the main thread to say where its part goes. */
export class BuiltPart {
	/** Posts the next piece, or `done` after the last (null before sending starts, and after `done`). */
	private postNext: (() => void) | null = null;

	/** `index` and `header` make the part; `notes` and `counted` go in the last message. */
	constructor(
		private readonly index: SearchIndex,
		private readonly header: PartHeaderInput,
		private readonly post: PostToMain,
		private readonly notes: number,
		private readonly counted: number,
		private readonly pieceBytes = PIECE_BYTES,
	) {}

	/** Whether this worker can save the part itself (a Web Worker has IndexedDB; a Node worker thread has none). */
	static canSave(): boolean {
		return typeof indexedDB !== 'undefined' && typeof IDBKeyRange !== 'undefined';
	}

	/** The part's pieces: held sections, and made ones (the postings in term order) filled only when written. */
	private pieces(): PartPiece[] {
		const host = browserCodecHost;
		const sections = drain(searchSourcesSteps(this.index, host));
		return drain(encodePartPiecesSteps({ kind: 'search', ...this.header, sections }, host));
	}

	/**
	 * Encode the part into `target` and post `saved`, its made sections filled a MB at a time as the
	 * records are put (at 50k notes the whole part, ~130 MB, was first made in the worker's memory);
	 * when that fails, post `save-failed` and send the part instead.
	 */
	async save(target: SaveTarget): Promise<void> {
		const store = new IndexedDbStore(target.database);
		try {
			await store.save(target.key, streamPieces(this.pieces()), target.notes);
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
		const pieces = partPieces(this.pieces().map(sectionBytes), this.pieceBytes);
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
