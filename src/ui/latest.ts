/**
 * Debounced async work where only the latest request matters (search as you type): each `run`
 * restarts the delay; when the latest task settles, every caller still waiting gets its result,
 * so an older keystroke never paints stale results over newer ones.
 */
export class LatestOnly<T> {
	private timer: number | null = null;
	private generation = 0;
	private waiting: { resolve: (value: T) => void; reject: (reason: unknown) => void }[] = [];

	/** `delayMs` of quiet before the latest task starts. */
	constructor(private readonly delayMs: number) {}

	/** Schedules `task` (replacing any not yet started); resolves with the latest task's result. */
	run(task: () => Promise<T>): Promise<T> {
		const generation = ++this.generation;
		if (this.timer !== null) window.clearTimeout(this.timer);
		return new Promise<T>((resolve, reject) => {
			this.waiting.push({ resolve, reject });
			this.timer = window.setTimeout(() => {
				this.timer = null;
				task().then(
					(value) => {
						if (generation === this.generation) for (const w of this.waiting.splice(0)) w.resolve(value);
					},
					(reason: unknown) => {
						if (generation === this.generation) for (const w of this.waiting.splice(0)) w.reject(reason);
					},
				);
			}, this.delayMs);
		});
	}

	/** Drops the pending task; callers still waiting never settle (their modal is gone). */
	cancel(): void {
		if (this.timer !== null) window.clearTimeout(this.timer);
		this.timer = null;
		this.generation++;
		this.waiting = [];
	}
}
