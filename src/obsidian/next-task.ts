/**
 * How the plugin's background jobs hand Obsidian's main thread back between their time slices.
 * Each job waits for a turn, and each turn is a task of its own that resumes one job. Jobs that
 * run at once (at layout-ready: the readiness count, the frontmatter pass and the search build)
 * then run one slice per task, instead of each running its slice in the same round of timers —
 * which stacked to 50–90 ms blocks at 50k notes. One queue per plugin (its source owns it), so
 * plugins never wait on each other's jobs.
 */
export class MainThreadTurns {
	/** Jobs waiting for a turn, first come first served. */
	private readonly waiting: (() => void)[] = [];
	private scheduled = false;

	/** Resolves in a later task of the main thread, one waiting job per task. */
	readonly next = (): Promise<void> =>
		new Promise((resolve) => {
			this.waiting.push(resolve);
			this.schedule();
		});

	private schedule(): void {
		if (this.scheduled) return;
		// why: a window closed under waiting jobs (a test environment torn down) has no next task to give.
		if (typeof window === 'undefined') return;
		this.scheduled = true;
		window.setTimeout(() => {
			this.scheduled = false;
			const resume = this.waiting.shift();
			if (this.waiting.length > 0) this.schedule();
			resume?.(); // the job goes on in this task's microtasks, up to its next pause
		}, 0);
	}
}
