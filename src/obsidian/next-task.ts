/**
 * How the plugin's background jobs hand Obsidian's main thread back between their time slices.
 * Each job waits for a turn, and each turn is a task of its own that resumes one job. Jobs that
 * run at once (at layout-ready: the readiness count, the frontmatter pass and the search build)
 * then run one slice per task, instead of each running its slice in the same round of timers —
 * which stacked to 50–90 ms blocks at 50k notes.
 */

/** Jobs waiting for a turn, first come first served. */
const waiting: (() => void)[] = [];
let turnScheduled = false;

/** Resolves in a later task of the main thread, one waiting job per task. */
export function nextTask(): Promise<void> {
	return new Promise((resolve) => {
		waiting.push(resolve);
		scheduleTurn();
	});
}

function scheduleTurn(): void {
	if (turnScheduled) return;
	// why: a window closed under waiting jobs (a test environment torn down) has no next task to give.
	if (typeof window === 'undefined') return;
	turnScheduled = true;
	window.setTimeout(() => {
		turnScheduled = false;
		const resume = waiting.shift();
		if (waiting.length > 0) scheduleTurn();
		resume?.(); // the job goes on in this task's microtasks, up to its next pause
	}, 0);
}
