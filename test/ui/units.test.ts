// @vitest-environment happy-dom
/** The faces' small pure parts: splitting `backlinks:` out of a query, highlighting, latest-only debouncing. */
// The stub installs Obsidian's DOM helpers (createDiv, createSpan…) when it loads.
import 'obsidian';
import { describe, expect, it } from 'vitest';
import { highlightRanges, renderHighlighted, termNeedles } from '../../src/ui/highlight';
import { LatestOnly } from '../../src/ui/latest';

describe('highlighting', () => {
	it('turns matched-term labels into needles: stems for English words, substrings otherwise', () => {
		expect(
			termNeedles([
				'developing',
				'front-end (synonym of frontend)',
				'восстанов… (prefix of восстановить)',
				'链接',
			]),
		).toEqual([
			{ text: 'front-end', wordPrefix: false },
			{ text: 'восстанов', wordPrefix: false },
			{ text: 'develop', wordPrefix: true },
			{ text: '链接', wordPrefix: false },
		]);
	});

	it('marks whole words from their stem, case-insensitively, never inside another word', () => {
		const needles = termNeedles(['developing']);
		expect(highlightRanges('Development and redeveloped; DEVELOPS.', needles)).toEqual([
			[0, 11],
			[29, 37],
		]);
		expect(highlightRanges('如何创建链接到标题', termNeedles(['链接']))).toEqual([[4, 6]]);
	});

	it('renders spans only, the matches as .vault-query-hl', () => {
		const el = document.body.createDiv();
		renderHighlighted(el, 'Copilot keeps prompts', termNeedles(['copilot', 'prompts']));
		expect([...el.children].map((c) => [c.tagName, c.className, c.textContent])).toEqual([
			['SPAN', 'vault-query-hl', 'Copilot'],
			['SPAN', '', ' keeps '],
			['SPAN', 'vault-query-hl', 'prompts'],
		]);
		expect(el.innerHTML).not.toContain('<mark');
	});
});

describe('LatestOnly', () => {
	it('runs only the last task of a burst and gives its result to every caller', async () => {
		const latest = new LatestOnly<string>(20);
		const ran: string[] = [];
		const task = (q: string) => async (): Promise<string> => {
			ran.push(q);
			return q;
		};
		const results = await Promise.all([latest.run(task('k')), latest.run(task('ke')), latest.run(task('kelly'))]);
		expect(ran).toEqual(['kelly']);
		expect(results).toEqual(['kelly', 'kelly', 'kelly']);
	});
});
