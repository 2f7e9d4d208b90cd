// The "what is X?" pack questions: note titles drawn at random (fixed seed) from
// kepano-obsidian, the Chinese help vault (obsidian-help-i18n/zh) and the generated vault
// (scripts/gen-vault.mjs --notes 1500 --seed 14, as set 2), asked as "What is X?" or, in
// Chinese, "X是什么？" / "什么是X？". The note with that title is the defining note a pack must
// quote. Drawn once into eval/what-is.json (`node eval/what-is.mjs`), split into a tuning set
// and a reported set that share no title; only the tuning set may be looked at while tuning.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { root } from './bundle.mjs';
import { generateVault, rng } from '../scripts/gen-vault.mjs';

const SEED = 24;
const PER_VAULT = { report: 20, tune: 12 }; // report drawn first: a small vault (kepano) gives its notes to the reported set
const GENERATED = { notes: 1500, seed: 14 };

function walk(dir, base, out) {
	for (const name of readdirSync(dir).sort()) {
		if (name.startsWith('.')) continue;
		const abs = join(dir, name);
		if (statSync(abs).isDirectory()) walk(abs, base, out);
		else if (name.endsWith('.md')) out.push(relative(base, abs).split('\\').join('/'));
	}
	return out;
}

/** The title a question asks about: the file name, without the generated vault's ` k0` copy mark. */
function askedTitle(path, generated) {
	const base = path.slice(path.lastIndexOf('/') + 1, -3);
	return generated ? base.replace(/ k\d+$/, '') : base;
}

/** A title worth asking about: has letters, is not a date or a template, and its note says something. */
function askable(path, title, text) {
	if (!/\p{L}{2}/u.test(title) || /^\d{4}-\d{2}(-\d{2})?/.test(title) || title.length > 50) return false;
	if (/(^|\/)(Templates|Daily)\//.test(path) || /readme/i.test(title)) return false;
	const body = text
		.replace(/^---\n[\s\S]*?\n---\n?/, '')
		.replace(/!\[\[[^\]]*\]\]|%%[\s\S]*?%%|<!--[\s\S]*?-->/g, '');
	return (body.match(/[\p{L}\p{N}]/gu) ?? []).length >= 40;
}

function question(title, lang, n) {
	if (lang !== 'zh') return `What is ${title}?`;
	return n % 2 === 0 ? `${title}是什么？` : `什么是${title}？`;
}

/** Draw the set (deterministic for a given vault tree). */
export function drawWhatIs(vaultsRoot) {
	const rand = rng(SEED);
	const parts = [
		{ vault: 'kepano-obsidian', lang: 'en', abs: join(vaultsRoot, 'kepano-obsidian') },
		{ vault: 'obsidian-help-i18n/zh', lang: 'zh', abs: join(vaultsRoot, 'obsidian-help-i18n', 'zh') },
		{ vault: 'generated', lang: 'en', abs: generateVault({ ...GENERATED, from: vaultsRoot }) },
	];
	const out = { tune: [], report: [] };
	for (const part of parts) {
		const generated = part.vault === 'generated';
		const paths = walk(part.abs, part.abs, []);
		const titles = new Map();
		for (const p of paths) {
			const t = askedTitle(p, generated).toLowerCase();
			titles.set(t, (titles.get(t) ?? 0) + 1);
		}
		const pool = paths.filter((p) => {
			const t = askedTitle(p, generated);
			return titles.get(t.toLowerCase()) === 1 && askable(p, t, readFileSync(join(part.abs, p), 'utf8'));
		});
		for (let i = pool.length - 1; i > 0; i--) {
			const j = Math.floor(rand() * (i + 1));
			[pool[i], pool[j]] = [pool[j], pool[i]];
		}
		let n = 0;
		for (const [set, count] of Object.entries(PER_VAULT))
			for (const path of pool.splice(0, count)) {
				const title = askedTitle(path, generated);
				out[set].push({
					id: `${set[0]}-${part.vault.split('/').pop()}-${++n}`,
					vault: part.vault,
					query: question(title, part.lang, n),
					title,
					defining: path,
				});
			}
	}
	return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
	const vaultsRoot = process.env.VAULTS ?? join(root, '..', 'shared', 'vaults');
	const drawn = drawWhatIs(vaultsRoot);
	const doc = {
		'//': 'Drawn by eval/what-is.mjs (seed 24) from note titles; "defining" = the note with that title. "tune" may be looked at while tuning; "report" is the set the tables report.',
		generated: GENERATED,
		budget: 800,
		...drawn,
	};
	writeFileSync(join(root, 'eval', 'what-is.json'), `${JSON.stringify(doc, null, 1)}\n`);
	process.stdout.write(`eval/what-is.json: ${drawn.tune.length} tuning, ${drawn.report.length} reported\n`);
}
