/**
 * A note whose frontmatter did not parse is searched by its body and reported the same way by
 * every command: listed in `skipped` with one reason, and the answer is `partial`.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli';

let vault = '';
beforeAll(() => {
	vault = mkdtempSync(join(tmpdir(), 'vq-fm-skip-'));
	mkdirSync(join(vault, '.obsidian'));
	writeFileSync(join(vault, 'Bad.md'), '---\ntags: [a\nkey: : x\n---\nalpha body words #t1\n');
	writeFileSync(join(vault, 'Good.md'), '---\ntags: [t1]\n---\nalpha good #t1\n');
});
afterAll(() => rmSync(vault, { recursive: true, force: true }));

interface Answer {
	status: string;
	results: { path: string }[];
	skipped: { path: string; reason: string }[];
}

describe('a note whose frontmatter was skipped', () => {
	it('is found by its body and listed as skipped, with status partial, by search, grep and tag alike', async () => {
		const answers: Record<string, Answer> = {};
		for (const [command, word] of [
			['search', 'alpha'],
			['grep', 'alpha'],
			['tag', 't1'],
		]) {
			const run = await cli([command!, word!, '--vault', vault, '--json']);
			answers[command!] = JSON.parse(run.stdout) as Answer;
		}
		for (const [command, answer] of Object.entries(answers)) {
			expect(answer.results.map((r) => r.path).sort(), command).toEqual(['Bad.md', 'Good.md']);
			expect(answer.status, command).toBe('partial');
			expect(
				answer.skipped.map((s) => s.path),
				command,
			).toEqual(['Bad.md']);
			expect(answer.skipped[0]!.reason, command).toMatch(/^frontmatter not parsed \(line 3: .*its body was$/);
		}
		expect(answers.search!.skipped).toEqual(answers.tag!.skipped);
		expect(answers.grep!.skipped).toEqual(answers.tag!.skipped);
	});
});
