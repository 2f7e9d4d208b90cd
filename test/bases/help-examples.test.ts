/**
 * The help pages are the spec: every example of Obsidian's Bases help (Functions, Bases syntax,
 * Formulas), read from the shared help vault at test time, evaluated by our engine over a small
 * fixture vault (a note with a `date`, tags `#tag1/a`, a link to `otherFile`, modified three days
 * before the fixed clock), and compared with the value the page gives. An example the page gives
 * no value for must evaluate without error; the few with a value only in words are checked here
 * by hand (HAND_CHECKED). docs/bases.md lists the exceptions (none today).
 */
import { expect } from 'vitest';
import { baseData, evaluateExpression, plainOf, textOf, type BaseData } from '../../src/core/bases/index';
import { scopeRules } from '../../src/core/scope';
import { MemorySource } from '../helpers/memory-source';
import { describeShared, itShared } from '../helpers/shared';
import { helpExamples, type HelpExample } from './help-examples';

const NOW = new Date(2025, 5, 10, 15, 30, 0).getTime();
const DAY = 86_400_000;

/** Examples whose value the page states in words, with that value. */
const HAND_CHECKED: Record<string, unknown> = {
	// "returns the largest number, or null when there is none" over values [3, 9, "x", 4].
	'values.filter(value.isType("number")).reduce(if(acc == null || value > acc, value, acc), null)': 9,
	'now() - file.ctime': 10 * DAY,
	'if(isModified, "Modified", "Unmodified")': 'Modified',
	'file(link("[[filename]]"))': 'filename.md',
	'link("[[filename]]").asFile()': 'filename.md',
	'list("value")': ['value'],
};

class FixtureSource extends MemorySource {
	// Only bases ask for a config file here: Obsidian's property types (`types.json`).
	override readConfigFile(): Promise<string | null> {
		return Promise.resolve(
			JSON.stringify({ types: { date: 'date', due_date: 'date', start_date: 'date', datetime: 'datetime' } }),
		);
	}
	fileStat(path: string): { size: number; ctime: number; mtime: number } {
		return { size: path.length, ctime: NOW - 10 * DAY, mtime: NOW - 3 * DAY };
	}
}

const ROW = 'notes/Example.md';

async function fixture(): Promise<BaseData> {
	const source = new FixtureSource({
		[ROW]: [
			'---',
			'date: "2025-05-27"',
			'datetime: "2025-05-27 10:20:30"',
			'due_date: "2025-06-01"',
			'start_date: "2025-05-01"',
			'tags: [tag1/a, urgent]',
			'price: 12.5',
			'quantity: 2',
			'tax: 1',
			'discount: 2',
			'part: 1',
			'whole: 4',
			'age: 40',
			'status: Doing',
			'completed: false',
			'urgent: true',
			'important: false',
			'isModified: true',
			'image-property: pic.png',
			'tasks: [a, b, c]',
			'impact: 3',
			'urgency: 2',
			'effort: 2',
			'first_name: Ada',
			'last_name: Lovelace',
			'description: A note',
			'monthlyUses: 4',
			'property: [1, 2]',
			'---',
			'See [[otherFile]] and [[filename]].',
		].join('\n'),
		'otherFile.md': 'Other.',
		'filename.md': 'A file called filename.',
		'path to file.md': 'A note with spaces.',
		'pic.png': 'PNG',
	});
	return baseData({
		source,
		rules: scopeRules(source, { excludedFolders: [] }),
		backlinks: () => [],
		findThis: (n) => n,
	});
}

function run(data: BaseData, text: string): unknown {
	return evaluateExpression(data, text, {
		row: ROW,
		now: NOW,
		names: { otherFile: { kind: 'file', path: 'otherFile.md' }, values: [3, 9, 'x', 4] },
		formulas: new Map([
			['price_per_unit', 'price / quantity'],
			['Owned', '(now() - start_date).months'],
		]),
	});
}

/** The documented value as a value: an expression of our language when it is one, else its text. */
function expectedValue(data: BaseData, example: HelpExample): unknown {
	try {
		return plainOf(evaluateExpression(data, example.expected!, { now: NOW }));
	} catch {
		return example.expected;
	}
}

const shape = (text: string): string => text.replace(/\d/g, '9');

describeShared('the Bases help pages as a spec', () => {
	const examples = helpExamples();

	itShared('finds the examples of the Functions, Bases syntax and Formulas pages', () => {
		expect(examples.length).toBeGreaterThan(100);
		expect(new Set(examples.map((e) => e.page)).size).toBe(3);
		expect(examples.filter((e) => e.expected !== null).length).toBeGreaterThan(50);
	});

	itShared('every documented example evaluates to the value its page gives', async () => {
		const data = await fixture();
		const failures: string[] = [];
		for (const example of examples) {
			const where = `${example.page}:${example.line} \`${example.expression}\``;
			let got: unknown;
			try {
				got = run(data, example.expression);
			} catch (error) {
				failures.push(`${where} threw ${(error as Error).message}`);
				continue;
			}
			const plain = plainOf(got as never);
			if (Object.prototype.hasOwnProperty.call(HAND_CHECKED, example.expression)) {
				if (JSON.stringify(plain) !== JSON.stringify(HAND_CHECKED[example.expression]))
					failures.push(
						`${where} gave ${JSON.stringify(plain)}, checked by hand: ${JSON.stringify(HAND_CHECKED[example.expression])}`,
					);
				continue;
			}
			if (example.expected === null) continue;
			const want = expectedValue(data, example);
			const ok = example.like
				? shape(textOf(got as never)) === shape(String(want))
				: JSON.stringify(plain) === JSON.stringify(want) || textOf(got as never) === example.expected;
			if (!ok) failures.push(`${where} gave ${JSON.stringify(plain)}, the page says ${example.expected}`);
		}
		expect(failures).toEqual([]);
	});
});
