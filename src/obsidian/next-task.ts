/** Runs a callback in a later task of the main thread. */
export type TaskPoster = (run: () => void) => void;

/** What {@link nextTaskPoster} looks for in the host's globals. */
export interface TaskHost {
	MessageChannel?: typeof MessageChannel;
	setTimeout?: (run: () => void, ms: number) => number;
}

/**
 * A task through a MessageChannel: a browser (Obsidian's Electron window, a phone's web view)
 * runs each message in a task of its own and, unlike `setTimeout(0)`, never clamps it to ≥ 4 ms
 * after a few nested timers — a build of hundreds of slices loses no time between them.
 */
export function messageChannelPoster(Channel: typeof MessageChannel): TaskPoster {
	const channel = new Channel();
	const queued: (() => void)[] = [];
	channel.port1.onmessage = () => queued.shift()?.();
	return (run) => {
		queued.push(run);
		channel.port2.postMessage(null);
	};
}

/**
 * How the host gives a later task: a browser's MessageChannel, else a zero-delay timer. Node's
 * MessageChannel (what tests of the plugin run on) is not taken: a Node port runs a message
 * posted from its own handler in the same turn of the event loop, so timers would starve; Node's
 * ports tell themselves apart by their `hasRef` method, which a browser's do not have.
 */
export function nextTaskPoster(host: TaskHost = window): TaskPoster | null {
	const Channel = host.MessageChannel;
	if (typeof Channel === 'function') {
		const probe = new Channel();
		const node = typeof (probe.port1 as unknown as { hasRef?: unknown }).hasRef === 'function';
		probe.port1.close();
		probe.port2.close();
		if (!node) return messageChannelPoster(Channel);
	}
	const timer = host.setTimeout;
	return typeof timer === 'function' ? (run) => void timer.call(host, run, 0) : null;
}

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
	private poster: TaskPoster | null | undefined;

	/** `post`: how a later task is had (default: {@link nextTaskPoster}, chosen on first use). */
	constructor(post?: TaskPoster) {
		this.poster = post;
	}

	/** Jobs someone waits on (a search's answer), resumed before any background job. */
	private readonly urgent: (() => void)[] = [];
	/** Jobs that give way to every other (the frontmatter pass), resumed only when no other job waits. */
	private readonly idle: (() => void)[] = [];

	/** Resolves in a later task of the main thread, one waiting job per task. */
	readonly next = (): Promise<void> =>
		new Promise((resolve) => {
			this.waiting.push(resolve);
			this.schedule();
		});

	/**
	 * Resolves in the next task of the main thread, before the background jobs waiting: a job the
	 * user waits on hands the thread to Obsidian (input, painting), not to our work over every note.
	 */
	readonly nextFirst = (): Promise<void> =>
		new Promise((resolve) => {
			this.urgent.push(resolve);
			this.schedule();
		});

	/**
	 * Resolves in a later task of the main thread once no other job waits for a turn: work nobody
	 * waits on (the frontmatter pass at layout-ready) runs while the others wait on something else
	 * (IndexedDB's reads of a saved index, a worker's build), never between their slices.
	 */
	readonly nextIdle = (): Promise<void> =>
		new Promise((resolve) => {
			this.idle.push(resolve);
			this.schedule();
		});

	private schedule(): void {
		if (this.scheduled) return;
		// why: a window closed under waiting jobs (a test environment torn down) has no next task to give.
		if (typeof window === 'undefined') return;
		this.poster ??= nextTaskPoster();
		if (this.poster === null) return;
		this.scheduled = true;
		this.poster(() => {
			this.scheduled = false;
			const resume = this.urgent.shift() ?? this.waiting.shift() ?? this.idle.shift();
			if (this.urgent.length > 0 || this.waiting.length > 0 || this.idle.length > 0) this.schedule();
			resume?.(); // the job goes on in this task's microtasks, up to its next pause
		});
	}
}
