/**
 * Resumable work as step functions: a generator that yields at its pause points (after a few
 * milliseconds of work) and returns its result. A host's main thread runs one in time slices,
 * yielding between them; a caller with no thread to keep free drains it in one go.
 */

/** Run a step function to its end in one go; its result. */
export function drain<T>(steps: Generator<void, T, void>): T {
	for (;;) {
		const r = steps.next();
		if (r.done === true) return r.value;
	}
}

// Core compiles without DOM or Node types; every host has a timer, Node also `setImmediate`.
declare function setTimeout(callback: () => void, ms: number): unknown;
declare function setImmediate(callback: () => void): unknown;
declare const window: unknown;

/**
 * One turn of the host's event loop, the default pause of a long build. Node gets `setImmediate`:
 * its zero-delay timer waits at least 1 ms, so a build that pauses every 12 ms idled ~8% of its
 * time. A page (Obsidian's renderer has both) gets the timer, which lets it paint; the plugin
 * passes its own pause anyway.
 */
export function hostTurn(): Promise<void> {
	// `typeof` reads a global the host may lack without throwing.
	const immediate = typeof window === 'undefined' && typeof setImmediate === 'function';
	return new Promise((resolve) => {
		if (immediate) setImmediate(resolve);
		else setTimeout(resolve, 0);
	});
}

/** A time budget shared by the steps of one long job: `used()` once `sliceMs` have passed since the last `pause()`. */
export class TimeSlice {
	private started: number;

	/** `pause` hands the thread back to the host (e.g. a zero-delay timer); `clock` reads milliseconds. */
	constructor(
		private readonly sliceMs: number,
		private readonly pauseFn: () => Promise<void>,
		private readonly clock: () => number,
	) {
		this.started = clock();
	}

	/** Whether the slice is used up. */
	used(): boolean {
		return this.clock() - this.started >= this.sliceMs;
	}

	/** Hand the thread back now, and start a new slice. */
	async pause(): Promise<void> {
		await this.pauseFn();
		this.started = this.clock();
	}

	/** Hand the thread back when the slice is used up (a loop's pause point). */
	async pauseIfUsed(): Promise<void> {
		if (this.used()) await this.pause();
	}

	/** Run `steps` to its end, pausing whenever the slice is used up; its result. */
	async run<T>(steps: Generator<void, T, void>): Promise<T> {
		for (;;) {
			const r = steps.next();
			if (r.done === true) return r.value;
			if (this.used()) await this.pause();
		}
	}
}

/**
 * Counts the work a step function does between its pauses: `add(n)` after each piece of work, and
 * the caller yields when it returns true (about `step` units since the last pause). Tests read
 * `largestSlice()` to bound what one slice did, whatever the clock says.
 */
export class WorkMeter {
	private since = 0;
	private largest = 0;
	/** How many times the work said to pause. */
	pauses = 0;

	/** `step`: the units of work between two pauses. */
	constructor(readonly step: number) {}

	/** Count `n` units of work; true when a step's worth is done (the caller yields now). */
	add(n: number): boolean {
		this.since += n;
		if (this.since < this.step) return false;
		this.largest = Math.max(this.largest, this.since);
		this.since = 0;
		this.pauses++;
		return true;
	}

	/** The most work done between two pauses so far (the work since the last pause included). */
	largestSlice(): number {
		return Math.max(this.largest, this.since);
	}
}
