/**
 * The page's collections in a Chromium bench load's log, read from V8's `--trace-gc` lines (the
 * bench's `--js-flags="--trace-gc"`), and the long tasks they fell in. The page's isolate is the
 * one that ran the bench's own full collection (`gc()`, V8's reason `testing`) just before
 * layout-ready, and that collection's line is the clock's anchor: V8 times its lines from the
 * isolate's start, the page its long tasks from layout-ready.
 */

/** A collection of the page's heap: when its pause ended (ms after layout-ready, to a few ms) and how long it held the thread. */
export interface GcPause {
	end_ms: number;
	pause_ms: number;
	kind: string;
}

/** A marking of the page's whole heap (`--trace-incremental-marking`): from its start to the end of its mark-compact, ms after layout-ready; its steps run inside the page's tasks. */
export interface Marking {
	from_ms: number;
	to_ms: number;
}

/** An incremental marking's start (`--trace-incremental-marking`): isolate, ms since its start. */
const MARKING_START = /\[\d+:(0x[0-9a-f]+):\d+\]\s+(\d+) ms: \[IncrementalMarking\] Start \(/g;

/** One `--trace-gc` line: isolate, ms since its start, kind, the pause (the figure before " / "), and the rest (the reason). */
const TRACE_LINE =
	/\[\d+:(0x[0-9a-f]+)\]\s+(\d+) ms: ([A-Za-z -]+?(?: \(reduce\))?) [\d.]+ \([\d.]+\) -> [\d.]+ \([\d.]+\) MB, pooled: [\d.]+ MB, ([\d.]+) \/ [\d.]+ ms(.*)$/gm;

/** A `--trace-gc` line as read. */
interface TraceLine {
	isolate: string;
	at: number;
	kind: string;
	pause: number;
	testing: boolean;
}

/** The log's `--trace-gc` lines and the anchor: the bench's first own collection (null: no trace of it). */
function traced(log: string): { lines: TraceLine[]; anchor: TraceLine } | null {
	const lines = [...log.matchAll(TRACE_LINE)].map((m) => ({
		isolate: m[1]!,
		at: Number(m[2]),
		kind: m[3]!.trim(),
		pause: Number(m[4]),
		testing: m[5]!.includes('testing'),
	}));
	const anchor = lines.find((line) => line.testing);
	return anchor === undefined ? null : { lines, anchor };
}

/** The page isolate's collections after the bench's first own one, timed from it (the bench's own left out). */
function pausesOf({ lines, anchor }: { lines: TraceLine[]; anchor: TraceLine }): GcPause[] {
	return lines
		.filter((line) => line.isolate === anchor.isolate && line.at > anchor.at && !line.testing)
		.map((line) => ({ end_ms: line.at - anchor.at, pause_ms: line.pause, kind: line.kind }));
}

/**
 * The page isolate's incremental markings, timed as its collections are (each from its start to
 * the mark-compact that ends it); null without `--trace-incremental-marking`, which prints their starts.
 */
function markingsOf(log: string, anchor: TraceLine, pauses: readonly GcPause[]): Marking[] | null {
	const starts = [...log.matchAll(MARKING_START)];
	if (starts.length === 0) return null;
	return starts
		.filter((m) => m[1] === anchor.isolate && Number(m[2]) > anchor.at)
		.flatMap((m) => {
			const from = Number(m[2]) - anchor.at;
			const end = pauses.find((p) => p.kind.includes('Mark-Compact') && p.end_ms > from);
			return end === undefined ? [] : [{ from_ms: from, to_ms: end.end_ms }];
		});
}

/**
 * The page's collections and markings in a load's log, read in one pass over it; null when the
 * log has no trace of the bench's own collection (no `--trace-gc`). `markings` is null where the
 * markings were not traced.
 */
export function pageTrace(log: string): { pauses: GcPause[]; markings: Marking[] | null } | null {
	const trace = traced(log);
	if (trace === null) return null;
	const pauses = pausesOf(trace);
	return { pauses, markings: markingsOf(log, trace.anchor, pauses) };
}

/** Whether a task that began `start` ms after layout-ready and took `ms` overlaps one of `markings`. */
export function duringMarking(markings: readonly Marking[], start: number, ms: number): boolean {
	return markings.some((m) => m.from_ms < start + ms && start < m.to_ms);
}

/** What the bench adds to a long task from the trace (run.ts): a collection's pause in it, and whether the heap was being marked. */
export interface TaskCollections {
	collection_ms?: number;
	during_marking?: boolean;
}

/** Milliseconds of `pauses` inside a task that began `start` ms after layout-ready and took `ms`. */
export function pausedWithin(pauses: readonly GcPause[], start: number, ms: number): number {
	let inside = 0;
	for (const pause of pauses) {
		const from = Math.max(start, pause.end_ms - pause.pause_ms);
		const to = Math.min(start + ms, pause.end_ms);
		if (to > from) inside += to - from;
	}
	return Math.round(inside);
}
