/**
 * A growing column of u32 values in fixed-size chunks: appending never copies what is already
 * there. The pending segment of a bulk build holds every posting of the vault (tens of millions
 * at 50k notes); a doubling array copied it whole at each growth — at 50k a one-second block of
 * the plugin's main thread.
 */

const SHIFT = 16; // why: 64k values (256 kB) per chunk: few chunks at 50k notes, little waste on a small vault.
const CHUNK = 1 << SHIFT;
const MASK = CHUNK - 1;

/** Appendable u32 column (see the module comment). */
export class ChunkedU32 {
	private chunks: Uint32Array[] = [];
	/** Values held. */
	length = 0;

	/** Append one value. */
	push(value: number): void {
		const c = this.length >>> SHIFT;
		if (c === this.chunks.length) this.chunks.push(new Uint32Array(CHUNK));
		this.chunks[c]![this.length & MASK] = value;
		this.length++;
	}

	/** The value at `i` (0 ≤ i < length). */
	get(i: number): number {
		return this.chunks[i >>> SHIFT]![i & MASK]!;
	}

	/** Drop every value. */
	clear(): void {
		this.chunks = [];
		this.length = 0;
	}

	/** Bytes allocated. */
	get byteLength(): number {
		return this.chunks.length * CHUNK * 4;
	}
}
