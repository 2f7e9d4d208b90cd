// clock-ok-file: the Chromium bench's page measures and reports; it asserts nothing.
/**
 * What the Chromium bench watches on the page's main thread, from the bundle's first line on:
 * Chromium's long tasks (`PerformanceObserver` `longtask`: every task over 50 ms, a garbage
 * collection inside it included), its long animation frames (their scripts name what ran), and a
 * beat every 4 ms whose gaps over 50 ms are kept with their times. `mark` names a moment (and asks
 * the server for the renderer's CPU then); `phases` cuts the record at consecutive marks.
 */

/** A long task or a beat gap: its start (ms after the first mark) and its duration. */
export interface Block {
	start: number;
	ms: number;
}

/** A long animation frame over 50 ms and the scripts that ran in it (over 5 ms each, by Chromium). */
export interface LongFrame extends Block {
	blocking: number;
	scripts: { ms: number; invoker: string; fn: string; at: string }[];
}

/** One phase's figures. */
export interface Phase {
	name: string;
	wall_ms: number;
	longest_long_task_ms: number;
	long_tasks_over_50: number;
	long_tasks: ProfiledBlock[];
	longest_gap_ms: number;
	gaps_over_50: number;
	gaps: Block[];
	long_frames: LongFrame[];
	/** The page's JS heap in use at the phase's end (Chromium's `performance.memory`), MB; null where it has none. */
	heap_mb: number | null;
	/** Under `?profile=1`: the phase's samples, those outside any script, its commonest innermost functions. */
	profile?: ProfiledBlock;
}

/** A long task with, under `?profile=1`, the JS Self-Profiling API's samples in it: how many, how many outside any script, the commonest innermost functions. */
export interface ProfiledBlock extends Block {
	samples?: number;
	no_script_samples?: number;
	top?: string[];
	/** The commonest stack of its samples, innermost first (8 frames at most). */
	stack?: string;
}

/** The JS Self-Profiling API's trace (not in the DOM typings). */
interface ProfilerTrace {
	frames: { name: string; resourceId?: number; line?: number }[];
	stacks: { parentId?: number; frameId: number }[];
	samples: { timestamp: number; stackId?: number }[];
	resources: string[];
}

/** A sampling profiler of the page's main thread, 10 ms a sample, with `?profile=1` (the server allows it by Document-Policy). */
const profiler = ((): { stop(): Promise<ProfilerTrace> } | null => {
	const Profiler = (window as unknown as { Profiler?: new (o: object) => { stop(): Promise<ProfilerTrace> } })
		.Profiler;
	if (new URLSearchParams(location.search).get('profile') !== '1' || Profiler === undefined) return null;
	return new Profiler({ sampleInterval: 10, maxBufferSize: 500_000 });
})();

/** `task` with the profile's samples inside it. */
function profiled(task: Block, trace: ProfilerTrace | null): ProfiledBlock {
	if (trace === null) return task;
	const inside = trace.samples.filter((x) => x.timestamp >= task.start && x.timestamp <= task.start + task.ms);
	const counts = new Map<string, number>();
	let none = 0;
	for (const sample of inside) {
		const stack = sample.stackId === undefined ? undefined : trace.stacks[sample.stackId];
		const frame = stack === undefined ? undefined : trace.frames[stack.frameId];
		if (frame === undefined) none++;
		else {
			const name = `${frame.name || '(anonymous)'}:${frame.line ?? '?'}`;
			counts.set(name, (counts.get(name) ?? 0) + 1);
		}
	}
	const top = [...counts].sort((a, b) => b[1] - a[1]).slice(0, 8);
	// The callers of the commonest innermost frame: what ran it (its name alone often names a helper).
	const chains = new Map<string, number>();
	for (const sample of inside) {
		const names: string[] = [];
		for (let id = sample.stackId; id !== undefined && names.length < 8; id = trace.stacks[id]?.parentId) {
			const frame = trace.frames[trace.stacks[id]!.frameId];
			names.push(`${frame?.name || '(anonymous)'}:${frame?.line ?? '?'}`);
		}
		if (names.length > 0) chains.set(names.join(' < '), (chains.get(names.join(' < ')) ?? 0) + 1);
	}
	const stack = [...chains].sort((a, b) => b[1] - a[1])[0]?.[0];
	return {
		...task,
		samples: inside.length,
		no_script_samples: none,
		top: top.map(([n, c]) => `${n} ×${c}`),
		...(stack === undefined ? {} : { stack }),
	};
}

const tasks: Block[] = [];
const frames: LongFrame[] = [];
const gaps: Block[] = [];
const marks: [string, number][] = [];
const cpuAsked: Promise<unknown>[] = [];

/** Keeps Chromium's long tasks. */
function takeTasks(entries: PerformanceEntryList): void {
	for (const e of entries) tasks.push({ start: e.startTime, ms: e.duration });
}

const taskObserver = new PerformanceObserver((list) => takeTasks(list.getEntries()));
taskObserver.observe({ type: 'longtask', buffered: true });

/** A long animation frame entry's part the bench reads (not in every DOM typing). */
interface FrameEntry extends PerformanceEntry {
	blockingDuration: number;
	scripts: {
		duration: number;
		invoker: string;
		sourceFunctionName: string;
		sourceURL: string;
		sourceCharPosition: number;
	}[];
}

try {
	new PerformanceObserver((list) => {
		for (const e of list.getEntries() as FrameEntry[]) {
			frames.push({
				start: e.startTime,
				ms: e.duration,
				blocking: e.blockingDuration,
				scripts: e.scripts.map((s) => ({
					ms: Math.round(s.duration),
					invoker: s.invoker,
					fn: s.sourceFunctionName,
					at: `${s.sourceURL.replace(/^.*\//, '')}:${s.sourceCharPosition}`,
				})),
			});
		}
	}).observe({ type: 'long-animation-frame', buffered: true });
} catch {
	// No long animation frames in this browser: the long tasks are still counted.
}

let last = performance.now();
const beatWaiters: (() => void)[] = [];
window.setInterval(() => {
	const now = performance.now();
	if (now - last > 50) gaps.push({ start: last, ms: now - last });
	last = now;
	for (const resolve of beatWaiters.splice(0)) resolve();
}, 4);

/** The bench's own full collections (start, end): a beat gap over one is the bench's, no phase's. */
const own: [number, number][] = [];

/** A full collection where Chromium was started with --expose-gc, its span kept: the set-up's garbage is not left to the measured spans. */
export function benchCollection(): void {
	const start = performance.now();
	(globalThis as { gc?: () => void }).gc?.();
	own.push([start, performance.now()]);
}

/** Resolves at the next beat: a block just made (the bench's own collection) ends its gap before the next mark. */
export function nextBeat(): Promise<void> {
	return new Promise((resolve) => beatWaiters.push(resolve));
}

/** Names this moment; the server reads the renderer's CPU as the request arrives. */
export function mark(name: string): void {
	marks.push([name, performance.now()]);
	heapAt.set(name, usedHeapMb());
	const load = new URLSearchParams(location.search).get('load') ?? 'first';
	// The bench's server reads the renderer's CPU (requestUrl is Obsidian's, not the page's).
	cpuAsked.push(window.fetch(`/bench/cpu?load=${load}&mark=${encodeURIComponent(name)}`).catch(() => undefined));
}

/** The JS heap in use at each mark, MB (null where the browser does not say). */
const heapAt = new Map<string, number | null>();

/** The page's JS heap in use, MB: Chromium's non-standard `performance.memory`, else null. */
function usedHeapMb(): number | null {
	const memory = (performance as { memory?: { usedJSHeapSize?: number } }).memory;
	return typeof memory?.usedJSHeapSize === 'number' ? Math.round(memory.usedJSHeapSize / 1e5) / 10 : null;
}

/** The ms from the mark `from` to the mark `to`. */
export function between(from: string, to: string): number {
	const at = (name: string): number => marks.find(([n]) => n === name)?.[1] ?? NaN;
	return Math.round(at(to) - at(from));
}

const round = (b: Block): Block => ({ start: Math.round(b.start), ms: Math.round(b.ms) });

/** The phase between consecutive marks (each named by its ending mark), times relative to `origin`'s mark. */
export async function phases(origin: string): Promise<Phase[]> {
	await Promise.all(cpuAsked);
	takeTasks(taskObserver.takeRecords()); // those not delivered yet
	const trace = profiler === null ? null : await profiler.stop();
	const zero = marks.find(([n]) => n === origin)?.[1] ?? 0;
	const out: Phase[] = [];
	for (let i = 1; i < marks.length; i++) {
		const [, from] = marks[i - 1]!;
		const [name, to] = marks[i]!;
		const inside = (b: Block): boolean => b.start >= from && b.start < to;
		const shift = (b: Block): Block => round({ start: b.start - zero, ms: b.ms });
		const t = tasks.filter(inside).map((b) => ({ ...profiled(b, trace), ...shift(b) }));
		// A gap belongs to the phase it ends in (it starts at the beat before, maybe before the mark that began the block); one over the bench's own collection to none.
		const g = gaps
			.filter((b) => b.start + b.ms >= from && b.start + b.ms < to)
			.filter((b) => !own.some(([s, e]) => s >= b.start && e <= b.start + b.ms))
			.map(shift);
		out.push({
			name,
			wall_ms: Math.round(to - from),
			longest_long_task_ms: Math.max(0, ...t.map((b) => b.ms)),
			long_tasks_over_50: t.length, // Chromium reports only tasks over 50 ms (a 50.4 ms one shows as 50)
			long_tasks: t,
			longest_gap_ms: Math.max(0, ...g.map((b) => b.ms)),
			gaps_over_50: g.length,
			gaps: g,
			...(trace === null ? {} : { profile: profiled({ start: from, ms: to - from }, trace) }),
			long_frames: frames.filter(inside).map((f) => ({ ...f, ...shift(f), blocking: Math.round(f.blocking) })),
			heap_mb: heapAt.get(name) ?? null,
		});
	}
	return out;
}
