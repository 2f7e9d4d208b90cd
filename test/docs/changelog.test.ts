import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { releaseNotes } from '../../scripts/release-notes.mjs';
import { REPO } from '../helpers/paths';

describe('CHANGELOG.md and the release notes drawn from it', () => {
	const changelog = readFileSync(join(REPO, 'CHANGELOG.md'), 'utf8');

	it('has an Unreleased section with entries, in Keep a Changelog headings', () => {
		const unreleased = releaseNotes(changelog, 'Unreleased') ?? '';
		expect(unreleased).toMatch(/^### (Added|Changed|Deprecated|Removed|Fixed|Security)$/m);
		expect(unreleased).toMatch(/^- \S/m);
		const headings = [...unreleased.matchAll(/^### (.+)$/gm)].map((m) => m[1]);
		expect(headings.filter((h) => !['Added', 'Changed', 'Deprecated', 'Removed', 'Fixed', 'Security'].includes(h!))).toEqual([]);
	});

	it("a version's notes are its section only, and a version without one has none", () => {
		const text = '# Changelog\n\n## [Unreleased]\n\n- next\n\n## [0.2.0] - 2027-01-01\n\n### Fixed\n\n- a bug\n\n## [0.1.0]\n\n- first\n';
		expect(releaseNotes(text, '0.2.0')).toBe('### Fixed\n\n- a bug');
		expect(releaseNotes(text, '0.1.0')).toBe('- first');
		expect(releaseNotes(text, '0.3.0')).toBeNull();
		expect(releaseNotes('## [0.4.0]\n\n## [0.3.0]\n- x\n', '0.4.0')).toBeNull();
	});
});
