// Deterministic synthetic vault for benchmarks: replicates the real notes of ../shared/vaults
// until N notes, each copy k under `c<k>/` with every note renamed `<name> k<k>` and every
// wikilink/embed to a replicated note rewritten the same way, so links still resolve. Notes of
// the last, partial copy are picked by a seeded shuffle. Writes to os.tmpdir() only.
//
//   node scripts/gen-vault.mjs [--notes 50000] [--seed 42] [--out DIR] [--from DIR]
// Prints the output folder. Re-running with the same arguments reuses a complete folder.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const say = (text = '') => process.stdout.write(`${text}\n`);

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** mulberry32: a tiny seeded PRNG. */
export function rng(seed) {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

function walk(dir, base, out) {
	for (const name of readdirSync(dir).sort()) {
		if (name.startsWith('.')) continue;
		const abs = join(dir, name);
		const st = statSync(abs);
		if (st.isDirectory()) walk(abs, base, out);
		else if (name.endsWith('.md')) out.push(relative(base, abs).split('\\').join('/'));
	}
	return out;
}

/** Generate (or reuse) a vault of `notes` notes; returns its folder. */
export function generateVault({ notes = 50_000, seed = 42, out, from } = {}) {
	const src = resolve(from ?? join(root, '..', 'shared', 'vaults'));
	const dest = resolve(out ?? join(tmpdir(), `vault-query-gen-${notes}-${seed}`));
	const marker = join(dest, '.complete');
	if (existsSync(marker)) return dest;
	if (dest.startsWith(src)) throw new Error('gen-vault: refusing to write inside the source vaults');
	rmSync(dest, { recursive: true, force: true });
	const paths = walk(src, src, []);
	const texts = paths.map((p) => readFileSync(join(src, p), 'utf8'));
	const basenames = new Set(paths.map((p) => p.slice(p.lastIndexOf('/') + 1, -3).toLowerCase()));
	const rand = rng(seed);
	const copies = Math.ceil(notes / paths.length);
	const linkRe = /(!?\[\[)([^\]|#^]+)([^\]]*\]\])/g;
	let written = 0;
	for (let k = 0; k < copies && written < notes; k++) {
		let order = paths.map((_, i) => i);
		const remaining = notes - written;
		if (remaining < paths.length) {
			for (let i = order.length - 1; i > 0; i--) {
				const j = Math.floor(rand() * (i + 1));
				[order[i], order[j]] = [order[j], order[i]];
			}
			order = order.slice(0, remaining).sort((a, b) => a - b);
		}
		const rename = (linkpath) => {
			const trimmed = linkpath.trim();
			const name = trimmed.slice(trimmed.lastIndexOf('/') + 1).replace(/\.md$/i, '');
			if (!basenames.has(name.toLowerCase())) return linkpath;
			const dir = trimmed.includes('/') ? `c${k}/${trimmed.slice(0, trimmed.lastIndexOf('/') + 1)}` : '';
			return `${dir}${name} k${k}`;
		};
		for (const i of order) {
			const p = paths[i];
			const slash = p.lastIndexOf('/');
			const newPath = `c${k}/${slash < 0 ? '' : p.slice(0, slash + 1)}${p.slice(slash + 1, -3)} k${k}.md`;
			const text = texts[i].replace(linkRe, (_, open, target, rest) => `${open}${rename(target)}${rest}`);
			const abs = join(dest, newPath);
			mkdirSync(dirname(abs), { recursive: true });
			writeFileSync(abs, text);
			written++;
		}
	}
	writeFileSync(marker, `${written} notes from ${src}, seed ${seed}\n`);
	return dest;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
	const arg = (name, def) => {
		const i = process.argv.indexOf(`--${name}`);
		return i > 0 ? process.argv[i + 1] : def;
	};
	const dir = generateVault({
		notes: Number(arg('notes', 50_000)),
		seed: Number(arg('seed', 42)),
		out: arg('out'),
		from: arg('from'),
	});
	say(dir);
}
