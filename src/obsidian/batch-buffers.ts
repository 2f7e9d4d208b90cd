/**
 * The buffers the main thread copies a batch of notes' bytes into before it transfers them to an
 * index worker (worker-host.ts), used again: the worker hands each one back once it has decoded the
 * batch (posted-notes.ts), and the next batch is copied into it. A fresh buffer a batch — 254 MB of
 * them at 50k notes — was memory outside V8's heap that only a collection gives back, and it
 * brought on collections of the whole page heap (Obsidian's metadata included) during the build,
 * their marking done in the main thread's turns. Handed back, a 50k-note first start in Chromium
 * spent 4.4–6.3 s of the main thread's CPU instead of 6.3–7.8 s, and had 1.3 long tasks a run
 * instead of 1.8 (BENCHMARKS, 2026-12-04).
 */

/** The least a new buffer holds: most batches fit in one (32 notes of ~5 kB), so a buffer handed back fits the next. */
const BATCH_BUFFER_BYTES = 256 * 1024;

/** Buffers kept for the next batches: as many as the batches in flight to a worker (its read-ahead: 512 notes, 16 batches), twice. */
const KEPT_BUFFERS = 32;

/** Sizes are rounded up to this, so that buffers of nearby sizes serve one another. */
const GRAIN = 64 * 1024;

/** The main thread's batch buffers (see the module comment). */
export class BatchBuffers {
	private readonly kept: ArrayBuffer[] = [];
	/** Buffers made so far (tests count them: a build makes a few, not one a batch). */
	made = 0;

	/** A buffer of at least `bytes`: a kept one when one is large enough, else a new one. */
	take(bytes: number): ArrayBuffer {
		if (bytes === 0) return new ArrayBuffer(0); // a batch of unreadable notes: nothing to hand back
		const i = this.kept.findIndex((buffer) => buffer.byteLength >= bytes);
		if (i >= 0) return this.kept.splice(i, 1)[0]!;
		this.made++;
		return new ArrayBuffer(Math.ceil(Math.max(bytes, BATCH_BUFFER_BYTES) / GRAIN) * GRAIN);
	}

	/** Buffers a worker handed back: kept for the next batches (those past {@link KEPT_BUFFERS}, and detached ones, are let go). */
	giveBack(buffers: readonly ArrayBuffer[] | undefined): void {
		for (const buffer of buffers ?? [])
			if (this.kept.length < KEPT_BUFFERS && buffer.byteLength > 0) this.kept.push(buffer);
	}
}
