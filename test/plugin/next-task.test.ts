// @vitest-environment happy-dom
import { setImmediate } from 'node:timers';
import { describe, expect, it, vi } from 'vitest';
import { MainThreadTurns, nextTaskPoster } from '../../src/obsidian/next-task';

/** A job of three slices, each taken at `turn` and logged as its name and number. */
function threeSlicesLogged(log: string[]) {
	return async (name: string, turn: () => Promise<void>): Promise<void> => {
		for (let slice = 1; slice <= 3; slice++) {
			await turn();
			log.push(`${name}${slice}`);
		}
	};
}

describe('the plugin jobs’ turns on the main thread', () => {
	it('resumes one waiting job per task, in turn, so jobs pausing together never run their slices in one go', async () => {
		const turns = new MainThreadTurns();
		const log: string[] = [];
		const job = async (name: string): Promise<void> => {
			for (let slice = 1; slice <= 3; slice++) {
				await turns.next();
				log.push(`${name}${slice}`);
			}
		};
		// A marker task queued after each job's turn: it sees which slices ran before it.
		const seen: string[][] = [];
		const marker = (): void => {
			seen.push([...log]);
			if (seen.length < 8) window.setTimeout(marker, 0);
		};
		window.setTimeout(marker, 0);
		await Promise.all([job('a'), job('b'), job('c')]);
		expect(log).toEqual(['a1', 'b1', 'c1', 'a2', 'b2', 'c2', 'a3', 'b3', 'c3']);
		// Between two marker tasks at most one slice ran.
		for (let i = 1; i < seen.length; i++) expect(seen[i]!.length - seen[i - 1]!.length).toBeLessThanOrEqual(1);
	});

	it('resumes a job someone waits on before the background jobs, still one slice per task', async () => {
		const turns = new MainThreadTurns();
		const log: string[] = [];
		const job = threeSlicesLogged(log);
		await Promise.all([job('a', turns.next), job('b', turns.next), job('s', turns.nextFirst)]);
		expect(log).toEqual(['s1', 's2', 's3', 'a1', 'b1', 'a2', 'b2', 'a3', 'b3']);
	});

	it('resumes a job that gives way only when no other job waits, still one slice per task', async () => {
		const turns = new MainThreadTurns();
		const log: string[] = [];
		const job = threeSlicesLogged(log);
		await Promise.all([job('i', turns.nextIdle), job('a', turns.next), job('s', turns.nextFirst)]);
		// The frontmatter pass (`i`) started first, yet waits for the restore (`a`) and the first answer (`s`).
		expect(log).toEqual(['s1', 's2', 's3', 'a1', 'a2', 'a3', 'i1', 'i2', 'i3']);
	});
});

/** A browser's MessageChannel as far as the turns use it: each message a task of its own (here a Node immediate, not a timer). */
class BrowserChannel {
	static posted = 0;
	readonly port1: { onmessage: (() => void) | null; close(): void } = { onmessage: null, close: () => undefined };
	readonly port2 = {
		postMessage: (): void => {
			BrowserChannel.posted++;
			setImmediate(() => this.port1.onmessage?.());
		},
		close: () => undefined,
	};
}
const browserChannel = BrowserChannel as unknown as typeof MessageChannel;

describe('how the turns get a later task', () => {
	it('takes its turns through a browser’s MessageChannel, not through zero-delay timers (which browsers clamp to 4 ms)', async () => {
		const timer = vi.spyOn(window, 'setTimeout');
		try {
			const turns = new MainThreadTurns(
				nextTaskPoster({
					MessageChannel: browserChannel,
					setTimeout: (run, ms) => window.setTimeout(run, ms), // clock-ok: the poster's fallback timer, handed in (the test counts that it is never used)
				}) ?? undefined,
			);
			const log: string[] = [];
			const job = async (name: string): Promise<void> => {
				for (let slice = 1; slice <= 50; slice++) {
					await turns.next();
					log.push(`${name}${slice}`);
				}
			};
			const before = BrowserChannel.posted;
			await Promise.all([job('a'), job('b')]);
			expect(log.slice(0, 4)).toEqual(['a1', 'b1', 'a2', 'b2']);
			expect(BrowserChannel.posted - before).toBe(100); // one task per turn
			expect(timer).not.toHaveBeenCalled();
		} finally {
			timer.mockRestore();
		}
	});

	it('falls back to a zero-delay timer without a MessageChannel, and with Node’s (which runs a message posted from its handler in the same turn, starving timers)', async () => {
		for (const host of [{}, { MessageChannel }]) {
			const timer = vi.fn((run: () => void) => window.setTimeout(run, 0));
			const turns = new MainThreadTurns(nextTaskPoster({ ...host, setTimeout: timer }) ?? undefined);
			for (let slice = 0; slice < 5; slice++) await turns.next();
			expect(timer).toHaveBeenCalledTimes(5);
		}
	});
});
