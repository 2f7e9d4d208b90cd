/**
 * The `instructions` of the `initialize` result: a few lines that introduce this vault to the
 * agent — how many notes, the main folders, the main tags once the metadata is read, whether it
 * has a schema note, and the vault's own AGENTS.md or CLAUDE.md — within a small cap. Built when a
 * client connects, from a walk of the folders (names only), so the handshake never waits for the
 * vault to be read.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readRegularText } from '../node/note-reader';
import { getAllTags } from '../core/obsidian-rules';
import type { VaultSession } from '../warm/session';

/** The whole introduction's cap in characters, and the vault's own guide's share of it. */
export const INTRODUCTION_CAP = 4000;
const GUIDE_CAP = 2000;
/** Folders and tags named. */
const TOP = 8;
/** Entries the walk looks at, at most (a huge vault is counted approximately: "at least"). */
const WALK_LIMIT = 200_000;

/** Markdown notes under each top-level folder ('' for the vault's root), from a walk of names only. */
function countNotes(
	vaultPath: string,
	configDir: string,
): { byFolder: Map<string, number>; total: number; cut: boolean } {
	const byFolder = new Map<string, number>();
	let total = 0;
	let seen = 0;
	const stack: [string, string][] = [['', '']];
	while (stack.length > 0 && seen < WALK_LIMIT) {
		const [rel, top] = stack.pop()!;
		let entries;
		try {
			entries = readdirSync(join(vaultPath, rel), { withFileTypes: true });
		} catch {
			continue; // an unreadable folder: the status tool lists what the read skipped
		}
		for (const entry of entries) {
			seen++;
			if (entry.name.startsWith('.') || (rel === '' && entry.name === configDir)) continue;
			const path = rel === '' ? entry.name : `${rel}/${entry.name}`;
			if (entry.isDirectory()) stack.push([path, rel === '' ? entry.name : top]);
			else if (entry.isFile() && entry.name.toLowerCase().endsWith('.md')) {
				total++;
				byFolder.set(top, (byFolder.get(top) ?? 0) + 1);
			}
		}
	}
	return { byFolder, total, cut: stack.length > 0 };
}

/** The most used tags of the notes, when the metadata is read (null before). */
function mainTags(session: VaultSession | null): string[] | null {
	if (session === null) return null;
	const { source } = session.peek();
	const counts = new Map<string, number>();
	for (const path of source.listNotes()) {
		// The saved tags when the source has them (no metadata decoded), else Obsidian's rule over the metadata.
		const saved = source.allTags?.(path);
		const metadata = saved === undefined ? source.getMetadata(path) : null;
		const tags = saved ?? (metadata ? getAllTags(metadata) : []);
		for (const tag of new Set(tags.map((t) => t.toLowerCase()))) counts.set(tag, (counts.get(tag) ?? 0) + 1);
	}
	return [...counts]
		.sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
		.slice(0, TOP)
		.map(([tag, n]) => `${tag} (${n})`);
}

/** The vault's own guide for agents (AGENTS.md, else CLAUDE.md, at its root), capped; null when it has none. */
async function vaultGuide(vaultPath: string): Promise<{ name: string; text: string } | null> {
	for (const name of ['AGENTS.md', 'CLAUDE.md']) {
		try {
			const text = (await readRegularText(join(vaultPath, name))).trim();
			return {
				name,
				text:
					text.length > GUIDE_CAP
						? `${text.slice(0, GUIDE_CAP)}\n… (cut; read ${name} with the note tool)`
						: text,
			};
		} catch {
			// none under this name
		}
	}
	return null;
}

/** What the introduction is made of. */
export interface IntroductionInput {
	vaultPath: string;
	configDir: string;
	/** The schema note's vault path (the reader's setting). */
	schemaPath: string;
	/** The session when the vault is already open (its tags are named), else null. */
	session: VaultSession | null;
}

/** The introduction (see the module comment), at most INTRODUCTION_CAP characters. */
export async function introduceVault(input: IntroductionInput): Promise<string> {
	const { vaultPath, configDir, schemaPath } = input;
	const counted = countNotes(vaultPath, configDir);
	const folders = [...counted.byFolder]
		.filter(([folder]) => folder !== '')
		.sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
		.slice(0, TOP)
		.map(([folder, n]) => `${folder}/ (${n})`);
	const tags = mainTags(input.session);
	const hasSchema =
		counted.total > 0 &&
		(await readRegularText(join(vaultPath, schemaPath)).then(
			() => true,
			() => false,
		));
	const lines = [
		`Vault Query answers from the Obsidian vault at ${vaultPath}, read-only: search (ranked, start here), query (tag/prop/links/grep), read (schema-strict), pack (cited context), note (verbatim text), status.`,
		`${counted.cut ? 'At least ' : ''}${counted.total} notes${folders.length > 0 ? `; main folders: ${folders.join(', ')}` : ''}.`,
		tags === null
			? 'Tags: the vault is still being read; query type "tag" lists a tag\'s notes once it is.'
			: tags.length > 0
				? `Main tags: ${tags.join(', ')}.`
				: 'No tags.',
		hasSchema
			? `Schema note: ${schemaPath} (read checks frontmatter against it).`
			: `No schema note at ${schemaPath}: call read with schema: "draft" to read against one drafted from the notes.`,
	];
	const guide = await vaultGuide(vaultPath);
	if (guide !== null) lines.push('', `The vault's ${guide.name}:`, guide.text);
	const text = lines.join('\n');
	return text.length > INTRODUCTION_CAP ? `${text.slice(0, INTRODUCTION_CAP - 2)} …` : text;
}
