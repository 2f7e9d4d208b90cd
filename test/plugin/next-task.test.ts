// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { MainThreadTurns } from '../../src/obsidian/next-task';

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
		for (let i = 1; i < seen.length; i++) expect(seen[i].length - seen[i - 1].length).toBeLessThanOrEqual(1);
	});
});
