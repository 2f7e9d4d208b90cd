/**
 * The Chromium bench reads the page's collections from V8's `--trace-gc` lines in a load's log
 * (the lines below are V8's own, from a 50k-note first start) and tells which long tasks had a
 * collection's pause in them.
 */
import { describe, expect, it } from 'vitest';
import { duringMarking, pageTrace, pausedWithin } from './gc-trace';

const LOG = [
	'[7001:0x2d9c004b0000]    23229 ms: Incremental Mark-Compact 420.9 (438.7) -> 420.6 (438.0) MB, pooled: 0.5 MB, 243.15 / 0.04 ms (+ 305.9 ms in 6267 steps since start of marking, biggest step 0.5 ms, walltime since start of marking 3838 ms) (average mu = 0.981, current mu = 0.981) allocation failure;',
	'[7001:0x2d9c004b0000]    24896 ms: Mark-Compact 491.2 (541.2) -> 467.6 (536.0) MB, pooled: 0.0 MB, 453.05 / 0.01 ms (average mu = 0.964, current mu = 0.728) testing; GC in old space requested',
	'[7001:0x2d9c43ccdc000]    25303 ms: Incremental Mark-Compact 78.5 (126.0) -> 46.4 (122.9) MB, pooled: 2.0 MB, 29.14 / 0.56 ms (+ 8.8 ms in 22 steps since start of marking) allocation failure;',
	'[7001:0x2d9c004b0000]    34464 ms: Scavenge 488.1 (538.8) -> 480.9 (546.6) MB, pooled: 0.0 MB, 3.16 / 0.00 ms (average mu = 0.962, current mu = 0.755) external memory pressure; ',
	'[7001:0x2d9c004b0000:0]    44903 ms: [IncrementalMarking] Start (global allocation limit): (size/waste/limit/slack) v8: 481MB / 0MB / 546MB / 65MB global: 681MB / 0MB / 558MB / 0MB',
	'[7001:0x2d9c004b0000]    45601 ms: Incremental Mark-Compact 482.4 (546.3) -> 480.0 (544.8) MB, pooled: 0.5 MB, 30.91 / 0.09 ms (+ 469.5 ms in 228 steps since start of marking, biggest step 19.4 ms) finalize incremental marking via task; GC in old space requested',
	'[6928:6928:1204/123050.359480:ERROR:content/common/zygote/zygote_communication_linux.cc:291] Failed to send GetTerminationStatus message to zygote',
	'[7001:0x2d9c004b0000]    56195 ms: Incremental Mark-Compact (reduce) 483.5 (546.3) -> 479.6 (483.8) MB, pooled: 0.0 MB, 312.66 / 0.08 ms (+ 685.6 ms in 506 steps) finalize incremental marking via stack guard; GC in old space requested',
	'[7001:0x2d9c004b0000]    58000 ms: Mark-Compact 480.0 (483.8) -> 470.0 (480.0) MB, pooled: 0.0 MB, 700.00 / 0.01 ms (average mu = 0.9) testing; GC in old space requested',
].join('\n');

describe('the page’s collections in a Chromium bench log', () => {
	it('are the page isolate’s, timed from the bench’s own collection before layout-ready, the bench’s own left out', () => {
		expect(pageTrace(LOG)!.pauses).toEqual([
			{ end_ms: 9568, pause_ms: 3.16, kind: 'Scavenge' },
			{ end_ms: 20705, pause_ms: 30.91, kind: 'Incremental Mark-Compact' },
			{ end_ms: 31299, pause_ms: 312.66, kind: 'Incremental Mark-Compact (reduce)' },
		]);
	});

	it('are none to tell where the log has no trace', () => {
		expect(pageTrace('[1:2:ERROR:x.cc:1] nothing of V8 here\n')).toBeNull();
	});

	it('tell how much of a long task a pause held', () => {
		const { pauses } = pageTrace(LOG)!;
		expect(pausedWithin(pauses, 30_980, 330)).toBe(313); // the memory reducer's pause, whole
		expect(pausedWithin(pauses, 20_690, 100)).toBe(15); // the end of a pause
		expect(pausedWithin(pauses, 25_000, 200)).toBe(0);
	});

	it('tell the markings of the whole heap, from their start to their mark-compact, and the tasks inside one', () => {
		const markings = pageTrace(LOG)!.markings!;
		expect(markings).toEqual([{ from_ms: 20_007, to_ms: 20_705 }]);
		expect(duringMarking(markings, 20_300, 60)).toBe(true);
		expect(duringMarking(markings, 19_900, 60)).toBe(false);
		expect(pageTrace(LOG.replace(/testing/g, 'other'))).toBeNull(); // no anchor: nothing can be timed
		expect(pageTrace(LOG.replace(/\[IncrementalMarking\]/g, '[other]'))!.markings).toBeNull(); // --trace-gc alone
	});
});
