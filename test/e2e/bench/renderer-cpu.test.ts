/**
 * The Chromium bench's /proc readings (renderer-cpu.ts, fresh-pages.ts), checked on this test's
 * own process: a process and its main thread read with their CPU and page faults, the faults grow
 * when the thread writes memory it never touched, and the probe of fresh pages gives a cost per
 * page. On a system without /proc (not Linux) the readings are null and the checks that need
 * them skip.
 */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { freshPageMicros } from './fresh-pages';
import { cpuUse, rendererCpu } from './renderer-cpu';

const HAS_PROC = existsSync(`/proc/${process.pid}/task`);

/** The page faults of this process's main thread (its task with the process's id). */
function mainThreadFaults(): number {
	const main = cpuUse(process.pid, process.pid);
	if (main === null) throw new Error('no main thread read');
	return main.faults;
}

describe('the bench reads CPU and page faults from /proc', () => {
	it.skipIf(!HAS_PROC)(
		'reads a process and its main thread, the process counting at least what the thread does',
		() => {
			const all = cpuUse(process.pid)!;
			const main = cpuUse(process.pid, process.pid)!;
			for (const use of [all, main]) {
				expect(Number.isInteger(use.cpuMs) && use.cpuMs >= 0).toBe(true);
				expect(Number.isInteger(use.faults) && use.faults > 0).toBe(true); // a running Node has touched memory
			}
			expect(all.faults).toBeGreaterThanOrEqual(main.faults);
			expect(all.cpuMs).toBeGreaterThanOrEqual(main.cpuMs);
		},
	);

	it.skipIf(!HAS_PROC)('counts the page faults of memory touched for the first time', () => {
		const before = mainThreadFaults();
		const fresh = Buffer.allocUnsafeSlow(8 * 1024 * 1024);
		fresh.fill(7);
		// At least one fault: 2,048 with 4 KB pages, a handful where the kernel hands out huge pages.
		expect(mainThreadFaults()).toBeGreaterThan(before);
		expect(fresh[fresh.length - 1]).toBe(7);
	});

	it('reads nothing of a process that does not exist, nor of renderers without a browser', () => {
		expect(rendererCpu(null)).toEqual({});
		expect(cpuUse('no-such-process')).toBeNull();
	});

	it('prices a fresh page as a positive number of microseconds', () => {
		const us = freshPageMicros();
		expect(Number.isFinite(us)).toBe(true);
		expect(us).toBeGreaterThan(0);
	});
});
