// npm run eval -- --packs also runs the packs of real use (eval/what-is.json, eval/sections.json):
// "what is X?" / "X是什么？" questions about drawn note titles — is the defining note quoted, and
// cited by COVERAGE — and questions whose answer is one section of a long note — is that section
// quoted, or left out for budget. On both: sources whose only match is one common word (the
// question has two or more key words; the source's quotes, heading and file name hold one, and not
// the rarest), and `covered` claims whose relevant sources miss a key term. `--tune` runs the
// tuning halves instead of the reported ones. Judging is always this checkout's code.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundleAndImport, root } from './bundle.mjs';
import { packEngineOf } from './packs.mjs';
import { generateVault } from '../scripts/gen-vault.mjs';

/** Sources of a pack whose only match with the question is one common word (see the module comment). */
function strays(J, index, query, pack) {
	const words = J.keyWordsOf(query).filter((w) => index.knownWordIdf(w) !== null);
	if (words.length < 2) return [];
	const idf = words.map((w) => index.knownWordIdf(w));
	const rarest = Math.max(...idf);
	const out = [];
	for (const s of pack.pack) {
		const terms = new Set(J.termsOf([...s.quotes, s.section, fileName(s.path)].join('\n')));
		const held = words.map((w, i) => (J.holdsWord(terms, w) ? i : -1)).filter((i) => i >= 0);
		if (held.length === 1 && idf[held[0]] < rarest) out.push(`${s.id} ${s.path} (only "${words[held[0]].text}")`);
	}
	return out;
}

/** A path's file name without `.md` (the source block shows it). */
function fileName(path) {
	return path.slice(path.lastIndexOf('/') + 1).replace(/\.md$/i, '');
}

/**
 * Facets claimed covered whose relevant sources do not hold every key term: in their quotes, or
 * in the file name their block shows (a note named for the term is about it). Terms are matched as
 * the index matches words (case and diacritics folded), not as raw substrings.
 */
function coveredButMissing(J, pack, keyTerms) {
	const words = keyTerms.flatMap((t) => J.keyWordsOf(t));
	const out = [];
	for (const c of pack.coverage) {
		if (c.status !== 'covered') continue;
		const relevant = pack.pack.filter((s) => c.sources.includes(s.id));
		const terms = new Set(J.termsOf(relevant.flatMap((s) => [...s.quotes, fileName(s.path)]).join('\n')));
		const missing = words.filter((w) => !J.holdsWord(terms, w)).map((w) => w.text);
		if (missing.length > 0) out.push(`"${c.facet}" covered without ${missing.join(', ')}`);
	}
	return out;
}

/** Run both sets (reported halves, or the tuning halves with `tune`); returns { tables, rows }. */
export async function runRealPacks({ vaultsRoot, engineDir = root, tune = false, verbose = false, say = () => {} }) {
	const whatIs = JSON.parse(readFileSync(join(root, 'eval', 'what-is.json'), 'utf8'));
	const sections = JSON.parse(readFileSync(join(root, 'eval', 'sections.json'), 'utf8'));
	const half = tune ? 'tune' : 'report';
	const E = await packEngineOf(engineDir);
	const J = await bundleAndImport('pack-eval-judge', [
		"export { keyWordsOf } from '../src/core/pack/facets';",
		"export { holdsWord } from '../src/core/pack/grade';",
		"export { termsOf } from '../src/core/search/tokenize';",
	]);
	const indexes = new Map();
	const open = async (vault) => {
		if (!indexes.has(vault)) {
			const abs =
				vault === 'generated'
					? generateVault({ ...whatIs.generated, from: vaultsRoot })
					: join(vaultsRoot, vault);
			if (!existsSync(abs)) throw new Error(`eval: vault ${abs} not found (set VAULTS=…)`);
			const source = await E.openVault(abs);
			indexes.set(vault, { source, index: await E.SearchIndex.build(source) });
		}
		return indexes.get(vault);
	};
	const rows = [];
	for (const q of whatIs[half]) {
		const { source, index } = await open(q.vault);
		const pack = await E.buildPack(source, index, { query: q.query, budget: whatIs.budget, builtAt: '2026-12-01' });
		const src = pack.pack.find((s) => s.path === q.defining);
		const cited = src !== undefined && pack.coverage.some((c) => c.sources.includes(src.id));
		const row = {
			set: 'what-is',
			id: q.id,
			query: q.query,
			quoted: src ? 1 : 0,
			cited: cited ? 1 : 0,
			empty: pack.pack.length === 0 ? 1 : 0,
			leftOut: pack.gaps.some((g) => g.kind === 'budget' && g.path === q.defining) && !src ? 1 : 0,
			strays: strays(J, index, q.query, pack),
			badCovered: coveredButMissing(J, pack, [q.title]),
			used: pack.handoff.tokens_used,
		};
		rows.push(row);
		if (verbose)
			say(
				`${q.id} ${q.query}: ${row.quoted ? 'quoted' : 'NOT quoted'} ${pack.pack.map((s) => `${s.id}=${s.path} § ${s.section}`).join(' | ')}`,
			);
	}
	for (const q of sections[half]) {
		const { source, index } = await open(q.vault);
		const pack = await E.buildPack(source, index, {
			query: q.query,
			budget: sections.budget,
			builtAt: '2026-12-01',
		});
		const src = pack.pack.find((s) => s.path === q.note && s.section === q.section);
		const row = {
			set: 'sections',
			id: q.id,
			query: q.query,
			quoted: src ? 1 : 0,
			cited: src !== undefined && pack.coverage.some((c) => c.sources.includes(src.id)) ? 1 : 0,
			empty: pack.pack.length === 0 ? 1 : 0,
			leftOut:
				!src && pack.gaps.some((g) => g.kind === 'budget' && g.path === q.note && g.section === q.section)
					? 1
					: 0,
			strays: strays(J, index, q.query, pack),
			badCovered: coveredButMissing(J, pack, q.key_terms),
			used: pack.handoff.tokens_used,
		};
		rows.push(row);
		if (verbose)
			say(
				`${q.id} ${q.query}: ${row.quoted ? 'quoted' : 'NOT quoted'} ${pack.pack.map((s) => `${s.id}=${s.path} § ${s.section}`).join(' | ')}`,
			);
	}
	const table = (set, budget) => {
		const rs = rows.filter((r) => r.set === set);
		const sum = (k) => rs.reduce((s, r) => s + r[k], 0);
		const what = set === 'what-is' ? 'defining note' : 'answering section';
		return {
			questions: rs.length,
			budget,
			[`${what} quoted`]: `${sum('quoted')} (${((100 * sum('quoted')) / Math.max(1, rs.length)).toFixed(1)}%)`,
			[`${what} cited relevant or partial by COVERAGE`]: sum('cited'),
			[`${what} left out for budget`]: sum('leftOut'),
			'empty packs': sum('empty'),
			'sources whose only match is one common word': rs.reduce((s, r) => s + r.strays.length, 0),
			'covered claims missing a key term': rs.reduce((s, r) => s + r.badCovered.length, 0),
		};
	};
	return {
		half,
		rows,
		tables: { 'what-is': table('what-is', whatIs.budget), sections: table('sections', sections.budget) },
	};
}

/** Both tables, before beside after when given, and the per-question problems of the after run. */
export function printRealPacks(say, after, before, beforeDir) {
	for (const [name, file] of [
		['what-is', 'eval/what-is.json'],
		['sections', 'eval/sections.json'],
	]) {
		const a = after.tables[name];
		say(
			`\nPacks of real use — ${name} (${file}, ${after.half} half)${before ? `; before = engine of ${beforeDir}` : ''}\n`,
		);
		say(before ? '| measure | before | after |\n|---|---|---|' : '| measure | value |\n|---|---|');
		for (const [k, x] of Object.entries(a))
			say(before ? `| ${k} | ${before.tables[name][k]} | ${x} |` : `| ${k} | ${x} |`);
	}
	const bad = after.rows.filter((r) => !r.quoted || r.strays.length > 0 || r.badCovered.length > 0);
	if (bad.length > 0) {
		say('\nQuestions with a problem:\n');
		for (const r of bad)
			say(
				`- ${r.id} "${r.query}": ${[!r.quoted ? (r.set === 'what-is' ? 'defining note not quoted' : 'answering section not quoted') : '', ...r.strays.map((s) => `stray ${s}`), ...r.badCovered].filter(Boolean).join('; ')}`,
			);
	}
}
