/**
 * A saved part read from IndexedDB's records as it is used: the records of the sections a query
 * reads only in part (the search part's postings, ~90 of its ~130 MB at 50k notes) are left out of
 * the restore, and one is loaded when a read first asks for it — the read throws
 * SavedIndexPending, and the engine runs the query again once the record is in. The rest come in
 * the background, one record per task, at idle priority; a save or a clear waits for them.
 */
import { SavedIndexDamaged, SavedIndexPending } from '../core/search/index-state';
import type { SnapshotReader } from '../core/snapshot/port';

/** A part's bytes over records of `chunkBytes` each (the last fewer), some not loaded yet (see the module comment). */
export class LazyPart implements SnapshotReader {
	private readonly loading = new Map<number, Promise<void>>();

	/** `chunks`: the records, null where not loaded yet; `load(i)` reads record `i`. */
	constructor(
		private readonly chunks: (Uint8Array | null)[],
		readonly size: number,
		private readonly chunkBytes: number,
		private readonly load: (i: number) => Promise<Uint8Array | null>,
	) {}

	/** Records not loaded yet. */
	get missing(): number {
		return this.chunks.filter((chunk) => chunk === null).length;
	}

	/**
	 * Bytes [offset, offset + length): a view of one record, else a copy (into `scratch` when it is
	 * long enough: a fresh MB a step was the re-save's longest blocks); SavedIndexPending when a
	 * record they lie in is not loaded.
	 */
	read(offset: number, length: number, scratch?: Uint8Array): Uint8Array {
		if (offset < 0 || length < 0 || offset + length > this.size) throw new RangeError('read past the end');
		if (length === 0) return new Uint8Array(0);
		const first = Math.floor(offset / this.chunkBytes);
		const last = Math.floor((offset + length - 1) / this.chunkBytes);
		const missing: number[] = [];
		for (let c = first; c <= last; c++) if (this.chunks[c] === null) missing.push(c);
		if (missing.length > 0) throw new SavedIndexPending(Promise.all(missing.map((c) => this.fetch(c))).then());
		const out =
			first === last
				? null
				: scratch !== undefined && scratch.length >= length
					? scratch
					: new Uint8Array(length);
		for (let c = first, at = 0; c <= last; c++) {
			const from = offset + at - c * this.chunkBytes;
			const piece = this.chunks[c]!.subarray(from, Math.min(this.chunkBytes, from + length - at));
			if (out === null) return piece.byteOffset % 8 === 0 ? piece : piece.slice();
			out.set(piece, at);
			at += piece.length;
		}
		return out!.length === length ? out! : out!.subarray(0, length);
	}

	/** Loads record `c` (once); rejects with SavedIndexDamaged when it is gone or not what the part's head said. */
	private fetch(c: number): Promise<void> {
		let loading = this.loading.get(c);
		if (loading === undefined) {
			const expected = Math.min(this.chunkBytes, this.size - c * this.chunkBytes);
			loading = this.load(c).then((bytes) => {
				if (bytes === null || bytes.length !== expected)
					throw new SavedIndexDamaged(`saved index: record ${c} is missing or changed`);
				this.chunks[c] = bytes;
			});
			this.loading.set(c, loading);
		}
		return loading;
	}

	/** Loads every record not loaded yet, one at a time, each after `turn()` (a task the host gives when idle). */
	async loadRest(turn: () => Promise<void>): Promise<void> {
		for (let c = 0; c < this.chunks.length; c++) {
			if (this.chunks[c] !== null) continue;
			await turn();
			await this.fetch(c);
		}
	}
}
