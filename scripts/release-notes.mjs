// Prints the release notes of one version: its section of CHANGELOG.md, without the heading.
//   node scripts/release-notes.mjs 0.2.0 > notes.md
// Exits 2 with the reason when CHANGELOG.md has no `## [0.2.0]` section (or an empty one): a
// release is tagged after its "Unreleased" entries moved under a heading of its version.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The body of `## [version]` in a changelog's text, or null when there is no such section.
 * @param {string} changelog
 * @param {string} version
 * @returns {string | null}
 */
export function releaseNotes(changelog, version) {
	const lines = changelog.split('\n');
	const start = lines.findIndex((line) => line.startsWith(`## [${version}]`));
	if (start === -1) return null;
	const end = lines.findIndex((line, i) => i > start && line.startsWith('## '));
	const body = lines
		.slice(start + 1, end === -1 ? lines.length : end)
		.join('\n')
		.trim();
	return body === '' ? null : body;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	const version = process.argv[2];
	if (version === undefined) {
		process.stderr.write('usage: node scripts/release-notes.mjs <version>\n');
		process.exit(2);
	}
	const root = join(dirname(fileURLToPath(import.meta.url)), '..');
	const notes = releaseNotes(readFileSync(join(root, 'CHANGELOG.md'), 'utf8'), version);
	if (notes === null) {
		process.stderr.write(
			`release-notes: CHANGELOG.md has no "## [${version}]" section with entries; move the Unreleased entries under it first\n`,
		);
		process.exit(2);
	}
	process.stdout.write(`${notes}\n`);
}
