// Markdown tables for npm run eval's --set2 and --packs runs (pasted into docs/EVAL.md as printed).
import { ENGINES } from './set2.mjs';

const f = (x) => x.toFixed(3);
const LABELS = {
	ours: 'Vault Query',
	minisearch: 'MiniSearch default',
	omnisearch: 'MiniSearch as Omnisearch',
	omnisearchCjk: 'Omnisearch + CJK words',
};

/** Per metric, one table: group, n, before (when given), after, and the three MiniSearch columns. */
export function printSet2(say, after, before, beforeDir) {
	say(
		`\nEval set 2 (eval/questions-2.json): ${after.rows.length} questions${before ? `; before = engine of ${beforeDir}` : ''}\n`,
	);
	for (const [key, name] of [
		['ndcg5', 'nDCG@5'],
		['mrr', 'MRR@10'],
		['hit3', 'Hit@3'],
	]) {
		const cols = [
			...(before ? ['before'] : []),
			...ENGINES.map((e) => (e === 'ours' && before ? 'after' : LABELS[e])),
		];
		say(`**${name}**\n\n| group | n | ${cols.join(' | ')} |\n|---|---|${cols.map(() => '---').join('|')}|`);
		after.table.forEach((t, i) => {
			const vals = [...(before ? [before.table[i].ours[key]] : []), ...ENGINES.map((e) => t[e][key])];
			say(`| ${t.group} | ${t.n} | ${vals.map(f).join(' | ')} |`);
		});
		say('');
	}
}

/** The pack evaluation's summary and its per-question failures. */
export function printPacks(say, r, before, beforeDir) {
	say(
		`\nPack eval (eval/packs.json): ${r.rows.length} questions, budget ${r.budget}${before ? `; before = engine of ${beforeDir}` : ''}\n`,
	);
	const v = (x) => (typeof x === 'number' && !Number.isInteger(x) ? f(x) : String(x));
	say(before ? '| measure | before | after |\n|---|---|---|' : '| measure | value |\n|---|---|');
	for (const [k, x] of Object.entries(r.summary))
		say(before ? `| ${k} | ${v(before.summary[k])} | ${v(x)} |` : `| ${k} | ${v(x)} |`);
	const bad = r.rows.filter((x) => x.problems.length > 0);
	if (bad.length > 0) {
		say('\nQuestions with a problem:\n');
		for (const x of bad) say(`- ${x.id} "${x.query}": ${x.problems.join('; ')}`);
	}
}
