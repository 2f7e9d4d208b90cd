import { afterEach, describe, expect, it, vi } from 'vitest';
import { hostTurn } from '../../src/core/steps';

describe('hostTurn, the default pause of a long build', () => {
	afterEach(() => {
		vi.unstubAllGlobals();
		vi.restoreAllMocks();
	});

	it('takes a turn with setImmediate in Node, where a zero-delay timer waits at least 1 ms', async () => {
		const immediate = vi.spyOn(globalThis, 'setImmediate');
		const timer = vi.spyOn(globalThis, 'setTimeout');
		await hostTurn();
		await hostTurn();
		expect(immediate).toHaveBeenCalledTimes(2);
		expect(timer).not.toHaveBeenCalled();
	});

	it('takes a turn with the timer on a page (a window is there), so the page can paint', async () => {
		vi.stubGlobal('window', {});
		const immediate = vi.spyOn(globalThis, 'setImmediate');
		const timer = vi.spyOn(globalThis, 'setTimeout');
		await hostTurn();
		expect(timer).toHaveBeenCalledTimes(1);
		expect(immediate).not.toHaveBeenCalled();
	});
});
