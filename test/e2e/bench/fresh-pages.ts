// clock-ok-file: a benchmark's probe of the machine: it times memory being touched and asserts nothing.
/**
 * What touching fresh memory costs this machine: microseconds per 4 KB page, the kernel's mapping
 * of the page and its zeroing included. Most machines take well under a microsecond; a virtual
 * machine whose freed memory goes back to its host (a balloon, free page reporting) can take
 * tens, and then every heap that grows, every collection that moves objects to new pages and
 * every large buffer costs that much more — the bench prints it beside its figures.
 */

/** Bytes touched per sample. */
const SAMPLE_BYTES = 32 * 1024 * 1024; // why: past any allocator's pools (fresh pages from the kernel), short enough to run in well under a second here.

/** Bytes of a page (Linux on x86-64 and most ARM). */
const PAGE_BYTES = 4096;

/** Samples taken; the median is reported. */
const SAMPLES = 3;

/** Microseconds to touch a fresh 4 KB page first: the median of {@link SAMPLES} buffers, each written once end to end. */
export function freshPageMicros(): number {
	const perPage: number[] = [];
	for (let i = 0; i < SAMPLES; i++) {
		const buffer = Buffer.allocUnsafeSlow(SAMPLE_BYTES); // not zeroed by Node: its pages are first touched by the fill
		const start = process.hrtime.bigint();
		buffer.fill(i + 1);
		const ns = Number(process.hrtime.bigint() - start);
		perPage.push(ns / 1000 / (SAMPLE_BYTES / PAGE_BYTES));
	}
	perPage.sort((a, b) => a - b);
	return perPage[Math.floor(SAMPLES / 2)]!;
}
