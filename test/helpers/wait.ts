/**
 * The one way a test waits: for a condition, never for a fixed time. `waitFor` polls until the
 * condition holds and fails only when a generous deadline passes — a stuck test, not a slow
 * machine (a loaded 2-core machine can take many times the usual time, and must stay green).
 * `test/lint/no-clocks.test.ts` keeps fixed sleeps and time thresholds out of every other file.
 */
import { setTimeout as pause } from 'node:timers/promises'; // clock-ok: waitFor's pause between checks

/** How long a wait may take before it counts as stuck: far beyond any healthy run on a loaded machine. */
export const STUCK_MS = 30_000;

/** Options of {@link waitFor}. */
export interface WaitOptions {
	/** What is awaited, for the failure message ("the server to answer"; default: the condition's code). */
	what?: string;
	/** When the wait counts as stuck (default {@link STUCK_MS}). */
	deadlineMs?: number;
	/** Pause between two checks (default 20 ms): how often to look, not how long to wait. */
	pollMs?: number;
}

/**
 * Resolves with the condition's first value other than `false` or `null`: a check returns false or
 * null while it does not hold, or asserts (`expect(…)` throws until it holds, then returns
 * nothing). Past the deadline it fails with `what` and the last check's error.
 */
export async function waitFor<T>(
	condition: () => T | Promise<T>,
	options: WaitOptions = {},
): Promise<Exclude<T, false | null>> {
	const deadlineMs = options.deadlineMs ?? STUCK_MS;
	// A deadline, not a threshold: only a check that never succeeds reaches it.
	const until = performance.now() + deadlineMs; // clock-ok: the stuck-test deadline
	let last: unknown = null;
	for (;;) {
		try {
			const value = await condition();
			if (value !== false && value !== null) return value as Exclude<T, false | null>;
			last = null;
		} catch (error) {
			last = error;
		}
		if (performance.now() > until) break; // clock-ok: the stuck-test deadline
		await pause(options.pollMs ?? 20); // clock-ok: the pause between two checks, not a wait for time
	}
	const why = last instanceof Error ? `: ${last.message}` : '';
	const what = options.what ?? condition.toString().replace(/\s+/g, ' ').slice(0, 200);
	throw new Error(`still waiting for ${what} after ${deadlineMs / 1000} s${why}`, { cause: last });
}
