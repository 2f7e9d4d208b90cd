// npm run eval: ranked-search quality on a labelled query set (eval/queries.json) over
// ../shared/vaults, for our engine and for MiniSearch configured like Omnisearch, in one run.
// Reports nDCG@5, MRR@10 and Hit@1, overall and per language. `-- --set2 [--before DIR]`: the second,
// untuned set per kind (eval/set2.mjs); `-- --packs [--tune]`: the context-pack evaluations (eval/packs.mjs, eval/packs-real.mjs). Vaults are read, never written;
// the engine is bundled on the fly into bench-output/ (gitignored).
import { readFileSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadEngine, root } from '../eval/bundle.mjs';
import { createOmnisearchLike, omnisearchDoc, omnisearchQuery } from '../eval/omnisearch-like.mjs';

const say = (text = '') => process.stdout.write(`${text}\n`);
const warn = (text) => process.stderr.write(`${text}\n`);

const args = process.argv.slice(2);
const verbose = args.includes('--verbose') || args.includes('-v');
const jsonOut = args.includes('--json');
const vaultsRoot = resolve(process.env.VAULTS ?? join(root, '..', 'shared', 'vaults'));
const option = (name) => {
	const i = args.indexOf(name);
	return i >= 0 ? args[i + 1] : undefined;
};
if (args.includes('--set2')) {
	const { runSet2 } = await import('../eval/set2.mjs');
	const { printSet2 } = await import('../eval/report.mjs');
	const after = await runSet2({ vaultsRoot, verbose, say });
	const beforeDir = option('--before');
	const before = beforeDir ? await runSet2({ vaultsRoot, engineDir: beforeDir }) : null;
	if (jsonOut) say(JSON.stringify({ after, before }, null, 2));
	else printSet2(say, after, before, beforeDir);
	process.exit(0);
}
if (args.includes('--packs')) {
	const { runPackEval } = await import('../eval/packs.mjs');
	const { printPacks } = await import('../eval/report.mjs');
	const result = await runPackEval({ vaultsRoot, verbose, say });
	const beforeDir = option('--before');
	const before = beforeDir ? await runPackEval({ vaultsRoot, engineDir: beforeDir }) : null;
	const { runRealPacks, printRealPacks } = await import('../eval/packs-real.mjs');
	const tune = args.includes('--tune');
	const real = await runRealPacks({ vaultsRoot, tune, verbose, say });
	const realBefore = beforeDir ? await runRealPacks({ vaultsRoot, engineDir: beforeDir, tune }) : null;
	if (jsonOut) say(JSON.stringify({ after: result, before, real, realBefore }, null, 2));
	else {
		printPacks(say, result, before, beforeDir);
		printRealPacks(say, real, realBefore, beforeDir);
	}
	process.exit(0);
}
const { queries } = JSON.parse(readFileSync(join(root, 'eval', 'queries.json'), 'utf8'));
const E = await loadEngine();

function dcg(gains) {
	return gains.reduce((s, g, i) => s + (2 ** g - 1) / Math.log2(i + 2), 0);
}
function metrics(ranked, relevant) {
	const gains = ranked.slice(0, 5).map((p) => relevant[p] ?? 0);
	const ideal = Object.values(relevant)
		.sort((a, b) => b - a)
		.slice(0, 5);
	const ndcg = dcg(ideal) > 0 ? dcg(gains) / dcg(ideal) : 0;
	const first = ranked.slice(0, 10).findIndex((p) => (relevant[p] ?? 0) > 0);
	return { ndcg, mrr: first < 0 ? 0 : 1 / (first + 1), hit1: (relevant[ranked[0]] ?? 0) > 0 ? 1 : 0 };
}

const byVault = new Map();
for (const q of queries) {
	if (!byVault.has(q.vault)) byVault.set(q.vault, []);
	byVault.get(q.vault).push(q);
}

const rows = [];
for (const [vault, qs] of byVault) {
	const abs = join(vaultsRoot, vault);
	if (!existsSync(abs)) {
		warn(`eval: vault ${abs} not found (set VAULTS=…)`);
		process.exit(2);
	}
	const source = await E.openVault(abs);
	const ours = await E.SearchIndex.build(source);
	const ms = createOmnisearchLike();
	const docs = [];
	for (const p of source.listNotes()) {
		if (source.getSkipReason(p) !== null) continue;
		docs.push(omnisearchDoc(p, await source.read(p), source.getMetadata(p)));
	}
	ms.addAll(docs);
	for (const q of qs) {
		const r = await E.search(ours, q.query, { limit: 10, withBacklinks: false });
		const oursRanked = r.results.map((h) => h.path);
		const msRanked = omnisearchQuery(ms, q.query, 10);
		const row = {
			id: q.id,
			lang: q.lang,
			query: q.query,
			ours: metrics(oursRanked, q.relevant),
			minisearch: metrics(msRanked, q.relevant),
		};
		rows.push(row);
		if (verbose) {
			say(
				`\n${q.id} ${q.query}  ours nDCG ${row.ours.ndcg.toFixed(2)} | MiniSearch ${row.minisearch.ndcg.toFixed(2)}`,
			);
			say(
				`  ours: ${r.results
					.slice(0, 5)
					.map((h) => `${q.relevant[h.path] ? '*' : ' '}${h.path} [${h.tier}]`)
					.join('\n        ')}`,
			);
			say(
				`  ms:   ${msRanked
					.slice(0, 5)
					.map((p) => `${q.relevant[p] ? '*' : ' '}${p}`)
					.join('\n        ')}`,
			);
		}
	}
}

function mean(list, engine, key) {
	return list.length === 0 ? 0 : list.reduce((s, r) => s + r[engine][key], 0) / list.length;
}
const groups = [
	['all', rows],
	...[...new Set(rows.map((r) => r.lang))].map((l) => [l, rows.filter((r) => r.lang === l)]),
];
const table = groups.map(([name, list]) => ({
	group: name,
	queries: list.length,
	ours: { ndcg5: mean(list, 'ours', 'ndcg'), mrr: mean(list, 'ours', 'mrr'), hit1: mean(list, 'ours', 'hit1') },
	minisearch: {
		ndcg5: mean(list, 'minisearch', 'ndcg'),
		mrr: mean(list, 'minisearch', 'mrr'),
		hit1: mean(list, 'minisearch', 'hit1'),
	},
}));
if (jsonOut) {
	say(JSON.stringify({ table, rows }, null, 2));
} else {
	const f = (x) => x.toFixed(3);
	say(`\nRanked search eval: ${rows.length} labelled queries (eval/queries.json), vaults under ${vaultsRoot}`);
	say('MiniSearch = MiniSearch 7 configured like Omnisearch (eval/omnisearch-like.mjs)\n');
	say('group  n   | nDCG@5 ours / MiniSearch | MRR@10 ours / MiniSearch | Hit@1 ours / MiniSearch');
	for (const t of table) {
		say(
			`${t.group.padEnd(6)} ${String(t.queries).padStart(2)}  |  ${f(t.ours.ndcg5)} / ${f(t.minisearch.ndcg5)}           |  ${f(t.ours.mrr)} / ${f(t.minisearch.mrr)}           |  ${f(t.ours.hit1)} / ${f(t.minisearch.hit1)}`,
		);
	}
}
