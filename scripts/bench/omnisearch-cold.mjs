/**
 * The peer's first search, cold: one Node process that does what Omnisearch does on a vault it
 * has never indexed, with MiniSearch 7 configured as Omnisearch configures it
 * (eval/omnisearch-like.mjs: its fields with the folder path added, boosts, tokenizer, prefix and
 * fuzzy search). It walks the vault (the folders our walk skips are skipped), reads every note,
 * takes its title (file name), folder, frontmatter aliases (js-yaml, as Obsidian's metadata
 * cache would have them) and H1–H3 headings (ATX headings outside code fences), indexes them with
 * the body, answers one query and prints one JSON line: notes, results and the first hit. Timed
 * from outside as a whole process (Node's start included), like a CLI call.
 *
 *   node scripts/bench/omnisearch-cold.mjs VAULT "QUERY"
 *
 * clock-ok-file: a benchmark helper; it prints and asserts nothing.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { createOmnisearchLike, omnisearchDoc, omnisearchQuery } from '../../eval/omnisearch-like.mjs';

const SKIPPED = new Set(['.git', 'node_modules', '.trash', '.obsidian']);

/** Every `.md` path of the vault, relative, '/'-separated. */
function walk(root) {
	const out = [];
	const visit = (dir, prefix) => {
		for (const entry of readdirSync(dir, { withFileTypes: true })) {
			if (entry.isDirectory()) {
				if (!SKIPPED.has(entry.name)) visit(join(dir, entry.name), `${prefix}${entry.name}/`);
			} else if (entry.isFile() && entry.name.endsWith('.md')) out.push(`${prefix}${entry.name}`);
		}
	};
	visit(root, '');
	return out;
}

/** Frontmatter (as an object) and ATX headings of a note, the parts of Obsidian's metadata Omnisearch reads. */
function metadataOf(text) {
	let frontmatter = {};
	let body = 0;
	if (text.startsWith('---\n') || text.startsWith('---\r\n')) {
		const end = text.indexOf('\n---', 3);
		if (end > 0) {
			try {
				const value = yaml.load(text.slice(text.indexOf('\n') + 1, end));
				if (value !== null && typeof value === 'object') frontmatter = value;
			} catch {
				// Obsidian shows no properties for frontmatter it cannot parse; the body is indexed all the same.
			}
			body = end + 4;
		}
	}
	const headings = [];
	let fence = null;
	for (const line of text.slice(body).split('\n')) {
		const open = /^ {0,3}(`{3,}|~{3,})/.exec(line);
		if (open) {
			if (fence === null) fence = open[1][0];
			else if (open[1][0] === fence) fence = null;
			continue;
		}
		if (fence !== null) continue;
		const heading = /^ {0,3}(#{1,6})[ \t]+(.*?)[ \t#]*$/.exec(line);
		if (heading) headings.push({ level: heading[1].length, heading: heading[2] });
	}
	return { frontmatter, headings };
}

const [vault, query] = process.argv.slice(2);
const ms = createOmnisearchLike({ directory: true });
const paths = walk(vault);
for (const path of paths) {
	const text = readFileSync(join(vault, path), 'utf8');
	ms.add(omnisearchDoc(path, text, metadataOf(text)));
}
const hits = omnisearchQuery(ms, query, 10, { directory: true });
process.stdout.write(`${JSON.stringify({ notes: paths.length, results: hits.length, first: hits[0] ?? null })}\n`);
