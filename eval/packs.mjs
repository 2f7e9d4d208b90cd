// npm run eval -- --packs [--before DIR]: the context-pack evaluation (eval/packs.json). Per
// question, one pack at the set's budget; measured: precision of the sources COVERAGE lists as
// relevant (their note is one a careful reader would cite), questions with a cited note among
// them, coverage claims checked against the key terms (a facet claimed covered must quote every
// key term in its relevant sources), and question or pointer sentences quoted by a relevant
// source (must be 0). `--before DIR` builds the packs with another checkout's engine; the
// judging (what a question or pointer sentence is) is always this checkout's.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { bundleAndImport, root } from './bundle.mjs';

/** The pack engine of checkout `dir`, bundled into bench-output/. */
export function packEngineOf(dir) {
	const d = resolve(dir).split('\\').join('/');
	const name = d === resolve(root).split('\\').join('/') ? 'pack-eval-engine' : 'pack-eval-engine-other';
	return bundleAndImport(name, [
		`export { buildPack } from '${d}/src/core/pack/pack';`,
		`export { SearchIndex } from '${d}/src/core/search/search';`,
		`export { openVault } from '${d}/src/node/vault-source';`,
		`export { PROFILES } from '${d}/src/core/config/profiles';`,
	]);
}

/**
 * Text as a reader sees it: Markdown's syntax characters dropped (a callout's `[!info]` reads
 * "info", `**not**` reads "not"), case and width folded, spaces collapsed.
 */
function visible(text) {
	return text
		.normalize('NFKC')
		.toLowerCase()
		.replace(/[[\]!*_`#>~=|]/g, '')
		.replace(/\s+/g, ' ');
}

/** The key terms no quote shows, compared as a reader sees them (see {@link visible}). */
function unquotedTerms(quotes, keyTerms) {
	const text = visible(quotes.join('\n'));
	return keyTerms.filter((t) => !text.includes(visible(t).trim()));
}

/** One question's pack, judged. */
function judge(q, pack, prose) {
	const relevantIds = new Set(pack.coverage.flatMap((c) => c.sources));
	const relevant = pack.pack.filter((s) => relevantIds.has(s.id));
	const cited = relevant.filter((s) => q.cite.includes(s.path));
	const quotes = relevant.flatMap((s) => s.quotes);
	const covered = pack.coverage.length > 0 && pack.coverage.every((c) => c.status === 'covered');
	const unquoted = unquotedTerms(quotes, q.key_terms);
	const termsQuoted = unquoted.length === 0;
	const asking = quotes.filter((x) => prose.isQuestion(x) || prose.isPointer(x));
	const problems = [];
	if (relevant.length > cited.length)
		problems.push(
			`relevant but not cited: ${relevant
				.filter((s) => !q.cite.includes(s.path))
				.map((s) => s.path)
				.join(', ')}`,
		);
	if (cited.length === 0) problems.push('no note a reader would cite is relevant');
	if (covered && !termsQuoted) problems.push(`claimed covered without quoting ${unquoted.join(', ')}`);
	if (asking.length > 0) problems.push(`question/pointer quoted as relevant: ${asking.join(' | ')}`);
	const first = pack.pack[0];
	return {
		id: q.id,
		query: q.query,
		relevant: relevant.length,
		cited: cited.length,
		firstCited: first !== undefined && relevantIds.has(first.id) && q.cite.includes(first.path) ? 1 : 0,
		covered,
		termsQuoted,
		asking: asking.length,
		status: pack.status,
		problems,
	};
}

/** Run the pack evaluation; returns { budget, rows, summary }. */
export async function runPackEval({ vaultsRoot, engineDir = root, verbose = false, say = () => {} }) {
	const set = JSON.parse(readFileSync(join(root, 'eval', 'packs.json'), 'utf8'));
	const E = await packEngineOf(engineDir);
	const prose = await bundleAndImport('pack-eval-prose', [
		"export { isQuestion, isPointer } from '../src/core/pack/prose';",
	]);
	const rows = [];
	const indexes = new Map();
	for (const q of set.queries) {
		if (!indexes.has(q.vault)) {
			const abs = q.vault === 'examples' ? join(root, 'examples', 'vault') : join(vaultsRoot, q.vault);
			if (!existsSync(abs)) throw new Error(`eval: vault ${abs} not found (set VAULTS=…)`);
			const source = await E.openVault(abs);
			// examples/vault selects the team-folders profile (its data.json; once named ob1), as the demo and the plugin read it.
			const profile = E.PROFILES['team-folders'] ?? E.PROFILES.ob1;
			const settings =
				q.vault === 'examples'
					? {
							keywordIndexPath: profile.settings.keywordIndexPath,
							excludedFolders: profile.settings.excludedFolders,
						}
					: {};
			indexes.set(q.vault, { source, index: await E.SearchIndex.build(source, settings) });
		}
		const { source, index } = indexes.get(q.vault);
		const pack = await E.buildPack(source, index, { query: q.query, budget: set.budget, builtAt: '2026-12-01' });
		const row = judge(q, pack, prose);
		rows.push(row);
		if (verbose)
			say(
				`${q.id} ${q.query}: ${pack.coverage.map((c) => `${c.status} [${c.sources.join(',')}]`).join('; ')} ${pack.pack.map((s) => `${s.id}=${s.path}`).join(' ')}`,
			);
	}
	const sum = (k) => rows.reduce((s, r) => s + r[k], 0);
	const claims = rows.filter((r) => r.covered);
	const summary = {
		questions: rows.length,
		'relevant sources': sum('relevant'),
		'of them cited by a careful reader': sum('cited'),
		'precision of relevant sources': sum('relevant') > 0 ? sum('cited') / sum('relevant') : 0,
		'questions with a cited note relevant': rows.filter((r) => r.cited > 0).length,
		'questions whose S1 is relevant and cited': sum('firstCited'),
		'facets claimed covered': claims.length,
		'covered claims quoting every key term': claims.filter((r) => r.termsQuoted).length,
		'question or pointer sentences quoted as relevant': sum('asking'),
	};
	return { budget: set.budget, rows, summary };
}
