// npm run eval -- --set2: the second, untuned evaluation set (eval/questions-2.json) — nDCG@5,
// MRR@10 and Hit@3 per kind (paraphrase, typo, exact) and per vault, for our engine and three
// MiniSearch baselines in the same run: MiniSearch's defaults, MiniSearch configured like
// Omnisearch, and the same with a CJK word tokenizer (Intl.Segmenter words, as Omnisearch's
// Chinese add-on gives). `--engine DIR` bundles the engine of another checkout (e.g. a
// `git worktree` of an older commit) for a before/after comparison.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import MiniSearch from 'minisearch';
import { generateVault } from '../scripts/gen-vault.mjs';
import { bundleAndImport, root } from './bundle.mjs';
import { createOmnisearchLike, omnisearchDoc, omnisearchQuery } from './omnisearch-like.mjs';

/** nDCG@5, MRR@10 and Hit@3 of one ranking against graded judgements. */
export function metrics(ranked, relevant) {
	const dcg = (gains) => gains.reduce((s, g, i) => s + (2 ** g - 1) / Math.log2(i + 2), 0);
	const gains = ranked.slice(0, 5).map((p) => relevant[p] ?? 0);
	const ideal = Object.values(relevant)
		.sort((a, b) => b - a)
		.slice(0, 5);
	const first = ranked.slice(0, 10).findIndex((p) => (relevant[p] ?? 0) > 0);
	return {
		ndcg: dcg(gains) / dcg(ideal),
		mrr: first < 0 ? 0 : 1 / (first + 1),
		hit3: first >= 0 && first < 3 ? 1 : 0,
	};
}

/** The engine of `dir` (a checkout), bundled into bench-output/. */
function engineOf(dir) {
	const d = resolve(dir).split('\\').join('/');
	const name = d === resolve(root).split('\\').join('/') ? 'search-engine' : 'search-engine-other';
	return bundleAndImport(name, [
		`export * from '${d}/src/core/search/search';`,
		`export { openVault } from '${d}/src/node/vault-source';`,
	]);
}

/** MiniSearch with its own defaults: title and content, its default tokenizer, exact terms, OR. */
function miniSearchDefault(docs) {
	const ms = new MiniSearch({ idField: 'path', fields: ['title', 'content'] });
	ms.addAll(docs.map((d) => ({ path: d.path, title: d.basename, content: d.content })));
	return (q) =>
		ms
			.search(q)
			.slice(0, 10)
			.map((r) => r.id);
}

/** Run set 2; returns { rows, table } with one row per question and engine. */
export async function runSet2({ vaultsRoot, engineDir = root, verbose = false, say = () => {} }) {
	const set = JSON.parse(readFileSync(join(root, 'eval', 'questions-2.json'), 'utf8'));
	const E = await engineOf(engineDir);
	const byVault = new Map();
	for (const q of set.queries) byVault.set(q.vault, [...(byVault.get(q.vault) ?? []), q]);
	const rows = [];
	for (const [vault, qs] of byVault) {
		const abs =
			vault === 'generated'
				? generateVault({ notes: set.generated.notes, seed: set.generated.seed, from: vaultsRoot })
				: join(vaultsRoot, vault);
		if (!existsSync(abs)) throw new Error(`eval: vault ${abs} not found (set VAULTS=…)`);
		const source = await E.openVault(abs);
		const ours = await E.SearchIndex.build(source);
		const docs = [];
		for (const p of source.listNotes())
			if (source.getSkipReason(p) === null)
				docs.push(omnisearchDoc(p, await source.read(p), source.getMetadata(p)));
		const omni = createOmnisearchLike();
		omni.addAll(docs);
		const omniCjk = createOmnisearchLike({ cjk: true });
		omniCjk.addAll(docs);
		const plain = miniSearchDefault(docs);
		for (const q of qs) {
			const r = await E.search(ours, q.query, { limit: 10, withBacklinks: false });
			const ranked = {
				ours: r.results.map((h) => h.path),
				minisearch: plain(q.query),
				omnisearch: omnisearchQuery(omni, q.query, 10),
				omnisearchCjk: omnisearchQuery(omniCjk, q.query, 10, { cjk: true }),
			};
			const row = { id: q.id, vault, kind: q.kind, query: q.query };
			for (const [k, list] of Object.entries(ranked)) row[k] = metrics(list, q.relevant);
			rows.push(row);
			if (verbose)
				say(
					`${q.id} ${q.query}\n  ours: ${ranked.ours
						.slice(0, 3)
						.map((p) => `${q.relevant[p] ? '*' : ' '}${p}`)
						.join(' | ')}`,
				);
		}
	}
	return { rows, table: summarize(rows) };
}

export const ENGINES = ['ours', 'minisearch', 'omnisearch', 'omnisearchCjk'];

/** Means per group: all, each kind, each vault. */
export function summarize(rows) {
	const groups = [
		['all', rows],
		...['paraphrase', 'typo', 'exact'].map((k) => [k, rows.filter((r) => r.kind === k)]),
		...[...new Set(rows.map((r) => r.vault))].map((v) => [v, rows.filter((r) => r.vault === v)]),
	];
	const mean = (list, e, key) => list.reduce((s, r) => s + r[e][key], 0) / Math.max(1, list.length);
	return groups.map(([group, list]) => ({
		group,
		n: list.length,
		...Object.fromEntries(
			ENGINES.map((e) => [
				e,
				{ ndcg5: mean(list, e, 'ndcg'), mrr: mean(list, e, 'mrr'), hit3: mean(list, e, 'hit3') },
			]),
		),
	}));
}
