// Context-pack benchmark (issue 5): pack assembly time on obsidian-help-i18n once the ranked-search
// index is built — buildPack end to end (searches, section grading, quotes, budget fill, render),
// median and p95 over the labelled eval queries plus multi-part questions, at the default budget
// and at 8,000 tokens. Target: ≤ 50 ms (p95). Also checks every pack stayed within its budget.
//   node scripts/bench-pack.mjs [--vault PATH] [--runs N (default 5)] [--json]
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleAndImport } from '../eval/bundle.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const TARGET_MS = 50;
const arg = (name, def) => {
	const i = process.argv.indexOf(`--${name}`);
	return i > 0 ? process.argv[i + 1] : def;
};
const vault = resolve(arg('vault', join(ROOT, '..', 'shared', 'vaults', 'obsidian-help-i18n')));
const runs = Number(arg('runs', 5));
const jsonOut = process.argv.includes('--json');
const say = (text = '') => process.stdout.write(`${text}\n`);

/** Bundle buildPack, the search index and the Node vault adapter (into bench-output/, gitignored; never into a vault). */
function loadEngine() {
	return bundleAndImport('pack-engine', [
		"export { buildPack, estimateTokens } from '../src/core/pack/pack';",
		"export { SearchIndex } from '../src/core/search/search';",
		"export { openVault } from '../src/node/vault-source';",
	]);
}

function pct(list, p) {
	const s = [...list].sort((a, b) => a - b);
	return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
}

const E = await loadEngine();
const labelled = JSON.parse(readFileSync(join(ROOT, 'eval', 'queries.json'), 'utf8')).queries.map((q) => q.query);
const questions = [
	...labelled,
	'如何链接到笔记中的标题，以及如何嵌入文件？',
	'如何在笔记之间创建链接，以及如何给笔记添加标签？',
	'how do I link to a heading, and how do I embed a file?',
	'what does Sync cost; is it end-to-end encrypted? and can I share a vault?',
	'[[Internal links#Link to a heading in a note]] and block references',
	'Wie verknüpfe ich Notizen und wie füge ich Tags hinzu?',
];

let t = performance.now();
const source = await E.openVault(vault);
const openMs = performance.now() - t;
t = performance.now();
const index = await E.SearchIndex.build(source, {}, { yieldFn: () => Promise.resolve() });
const buildMs = performance.now() - t;
say(`vault: ${vault} (${index.size} notes indexed; open ${Math.round(openMs)} ms, index ${Math.round(buildMs)} ms)`);

const budgets = [undefined, 8000];
const rows = [];
let over = 0;
for (const budget of budgets) {
	for (const q of questions) await E.buildPack(source, index, { query: q, budget, builtAt: '2026-01-01' }); // warm-up
	const times = [];
	let sources = 0;
	for (let r = 0; r < runs; r++) {
		for (const q of questions) {
			const t0 = performance.now();
			const pack = await E.buildPack(source, index, { query: q, budget, builtAt: '2026-01-01' });
			times.push(performance.now() - t0);
			sources += pack.pack.length;
			if (pack.status !== 'failed' && E.estimateTokens(pack.markdown) > (budget ?? 2000)) over++;
		}
	}
	rows.push({
		budget: budget ?? 2000,
		packs: times.length,
		medianMs: pct(times, 50),
		p95Ms: pct(times, 95),
		maxMs: Math.max(...times),
		meanSources: sources / times.length,
	});
}

const result = {
	vault,
	notes: index.size,
	indexBuildMs: Math.round(buildMs),
	queries: questions.length,
	runs,
	targetMs: TARGET_MS,
	rows,
	overBudget: over,
	pass: over === 0 && rows.every((r) => r.p95Ms <= TARGET_MS),
};
mkdirSync(join(ROOT, 'bench-output'), { recursive: true });
// The figures npm run bench reads for the table in docs/BENCHMARKS.md.
writeFileSync(
	join(ROOT, 'bench-output', 'pack.json'),
	`${JSON.stringify({ date: new Date().toISOString(), result }, null, '\t')}\n`,
);
if (jsonOut) say(JSON.stringify(result, null, 2));
else {
	say(`${questions.length} questions × ${runs} runs per budget, after one warm-up pass`);
	say('budget   packs   median     p95      max   sources/pack   target');
	for (const r of rows) {
		say(
			`${String(r.budget).padStart(6)}  ${String(r.packs).padStart(6)}  ${r.medianMs.toFixed(1).padStart(6)} ms ${r.p95Ms.toFixed(1).padStart(6)} ms ${r.maxMs.toFixed(1).padStart(6)} ms ${r.meanSources.toFixed(1).padStart(9)}      ${r.p95Ms <= TARGET_MS ? 'PASS' : 'MISS'} (p95 ≤ ${TARGET_MS} ms)`,
		);
	}
	say(`packs over budget: ${over}`);
}
process.exitCode = result.pass ? 0 : 1;
