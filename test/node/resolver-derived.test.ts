/**
 * Derived, not recorded: link-resolution cases the Obsidian 1.9 capture does not cover (its vault
 * has no duplicate file names, no relative or `/` links, no NFD names). Each expectation follows
 * shared/OBSIDIAN-METADATA.md's seven steps; where the doc leaves a choice (tie-breaks, NFC) the
 * test pins ours so that it cannot drift silently.
 */
import { describe, expect, it } from 'vitest';
import { LinkResolver } from '../../src/node/resolver';

const files = [
	'note.md',
	'Index.md',
	'a/note.md',
	'a/b/note.md',
	'a/b/c/deep.md',
	'x/note.md',
	'x/y/note.md',
	'z/dup.md',
	'y/dup.md',
	'q/Report.pdf',
	'q/Report.md',
	'img/Photo.PNG',
	'img/chart.png',
	'docs/v1.2.md',
	'docs/archive.tar.gz',
	'only/Unique Name.md',
	'only/README.MD',
];

describe('link resolution (derived, not recorded)', () => {
	const r = new LinkResolver(files);

	describe('empty linkpath (step 1)', () => {
		it('resolves to the source itself', () => {
			expect(r.getFirstLinkpathDest('', 'a/b/note.md')).toBe('a/b/note.md');
		});
		it('is unresolved when the source is not a vault file', () => {
			expect(r.getFirstLinkpathDest('', 'nowhere.md')).toBeNull();
		});
	});

	describe('names, extensions and case (steps 2–3)', () => {
		it('resolves a unique bare name with and without .md', () => {
			expect(r.getFirstLinkpathDest('Unique Name', 'Index.md')).toBe('only/Unique Name.md');
			expect(r.getFirstLinkpathDest('Unique Name.md', 'Index.md')).toBe('only/Unique Name.md');
		});
		it('ignores case in names and folders', () => {
			expect(r.getFirstLinkpathDest('unique name', 'Index.md')).toBe('only/Unique Name.md');
			expect(r.getFirstLinkpathDest('ONLY/unique NAME.MD', 'Index.md')).toBe('only/Unique Name.md');
			expect(r.getFirstLinkpathDest('index', 'a/note.md')).toBe('Index.md');
		});
		it('resolves non-markdown files only by their full name', () => {
			expect(r.getFirstLinkpathDest('Report.pdf', 'Index.md')).toBe('q/Report.pdf');
			expect(r.getFirstLinkpathDest('chart.png', 'Index.md')).toBe('img/chart.png');
			expect(r.getFirstLinkpathDest('photo.png', 'Index.md')).toBe('img/Photo.PNG');
			expect(r.getFirstLinkpathDest('chart', 'Index.md')).toBeNull();
		});
		it('prefers the note when the extension-less name is shared with an attachment', () => {
			expect(r.getFirstLinkpathDest('Report', 'Index.md')).toBe('q/Report.md');
		});
		it('appends .md when a dotted name has no file of its own', () => {
			expect(r.getFirstLinkpathDest('v1.2', 'Index.md')).toBe('docs/v1.2.md');
			expect(r.getFirstLinkpathDest('archive.tar.gz', 'Index.md')).toBe('docs/archive.tar.gz');
		});
		it('finds a note with an upper-case extension by name, since names compare lower-cased', () => {
			expect(r.getFirstLinkpathDest('README', 'Index.md')).toBe('only/README.MD');
		});
		it('leaves unknown names unresolved', () => {
			expect(r.getFirstLinkpathDest('missing', 'Index.md')).toBeNull();
			expect(r.getFirstLinkpathDest('missing.pdf', 'Index.md')).toBeNull();
		});
	});

	describe('duplicate names (step 5 then step 7)', () => {
		it('an exact vault path wins, even over a same-folder file', () => {
			// `note` is the root file's exact path (`note.md`), so step 5 picks it before step 7.
			expect(r.getFirstLinkpathDest('note', 'a/b/c/deep.md')).toBe('note.md');
			expect(r.getFirstLinkpathDest('x/y/note', 'a/note.md')).toBe('x/y/note.md');
		});
		it('prefers candidates inside the source folder, then the shortest path', () => {
			// No exact path `dup.md`: both are suffix matches; the one under the source's folder wins.
			expect(r.getFirstLinkpathDest('dup', 'z/other.md')).toBe('z/dup.md');
			expect(r.getFirstLinkpathDest('dup', 'y/other.md')).toBe('y/dup.md');
		});
		it('takes the shortest path among several folder-relative matches', () => {
			expect(r.getFirstLinkpathDest('b/note', 'Index.md')).toBe('a/b/note.md');
			expect(r.getFirstLinkpathDest('y/note', 'Index.md')).toBe('x/y/note.md');
		});
		it('prefers a match inside the source folder over a shorter one elsewhere', () => {
			const dupes = new LinkResolver(['p/long/folder/name/t.md', 'q/t.md']);
			expect(dupes.getFirstLinkpathDest('t', 'p/source.md')).toBe('p/long/folder/name/t.md');
			expect(dupes.getFirstLinkpathDest('t', 'r/source.md')).toBe('q/t.md');
		});
		it('breaks equal-length ties alphabetically whatever the insertion order', () => {
			expect(r.getFirstLinkpathDest('dup', 'Index.md')).toBe('y/dup.md');
			const reversed = new LinkResolver(['z/dup.md', 'y/dup.md']);
			const forward = new LinkResolver(['y/dup.md', 'z/dup.md']);
			expect(reversed.getFirstLinkpathDest('dup', 'k/s.md')).toBe('y/dup.md');
			expect(forward.getFirstLinkpathDest('dup', 'k/s.md')).toBe('y/dup.md');
		});
		it('matches path suffixes as plain text, as the doc states', () => {
			expect(r.getFirstLinkpathDest('/note', 'x/y/note.md')).toBe('note.md');
			expect(r.getFirstLinkpathDest('c/deep', 'Index.md')).toBe('a/b/c/deep.md');
			expect(r.getFirstLinkpathDest('/c/deep', 'Index.md')).toBeNull();
			// "ends with the linkpath" has no segment boundary: `b/t` matches `ab/t.md` (doc-literal).
			const partial = new LinkResolver(['ab/t.md', 'other/t.md']);
			expect(partial.getFirstLinkpathDest('b/t', 'Index.md')).toBe('ab/t.md');
		});
		it('leaves a folder-qualified link unresolved when no candidate path ends with it', () => {
			expect(r.getFirstLinkpathDest('wrong/note', 'Index.md')).toBeNull();
			expect(r.getFirstLinkpathDest('wrong/Unique Name', 'Index.md')).toBeNull();
		});
	});

	describe('relative and absolute links (steps 4–6)', () => {
		it('resolves ./ against the source folder', () => {
			expect(r.getFirstLinkpathDest('./note', 'a/b/c/deep.md')).toBeNull();
			expect(r.getFirstLinkpathDest('./note', 'a/b/x.md')).toBe('a/b/note.md');
			expect(r.getFirstLinkpathDest('./note.md', 'x/other.md')).toBe('x/note.md');
		});
		it('resolves ../ against the source folder', () => {
			expect(r.getFirstLinkpathDest('../note', 'a/b/c/deep.md')).toBe('a/b/note.md');
			expect(r.getFirstLinkpathDest('../../note', 'a/b/c/deep.md')).toBe('a/note.md');
			expect(r.getFirstLinkpathDest('../../../note', 'a/b/c/deep.md')).toBe('note.md');
			expect(r.getFirstLinkpathDest('../y/note', 'x/other.md')).toBeNull();
			expect(r.getFirstLinkpathDest('../x/y/note', 'a/source.md')).toBe('x/y/note.md');
		});
		it('leaves a relative link that climbs above the root unresolved', () => {
			expect(r.getFirstLinkpathDest('../../note', 'a/source.md')).toBeNull();
		});
		it('strips one leading / and then requires the exact path', () => {
			expect(r.getFirstLinkpathDest('/a/note', 'x/y/note.md')).toBe('a/note.md');
			expect(r.getFirstLinkpathDest('/Unique Name', 'Index.md')).toBeNull();
			expect(r.getFirstLinkpathDest('/q/Report.pdf', 'Index.md')).toBe('q/Report.pdf');
		});
		it('a unique bare name still resolves from any folder', () => {
			expect(r.getFirstLinkpathDest('deep', 'x/y/note.md')).toBe('a/b/c/deep.md');
		});
	});

	describe('Unicode normalisation (derived: keys are NFC on both sides)', () => {
		const nfc = 'Caf\u00e9'; // é as one code point, as typed
		const nfd = 'Cafe\u0301'; // e + combining acute, as macOS file systems often store it
		it('finds an NFD file from an NFC link and returns the file spelling', () => {
			const nfdVault = new LinkResolver([`notes/${nfd}.md`, `Cr\u00e8me/${nfd} menu.pdf`]);
			expect(nfdVault.getFirstLinkpathDest(nfc, 'Index.md')).toBe(`notes/${nfd}.md`);
			expect(nfdVault.getFirstLinkpathDest(`notes/${nfc}`, 'Index.md')).toBe(`notes/${nfd}.md`);
			expect(nfdVault.getFirstLinkpathDest(`Cre\u0300me/${nfc} menu.pdf`, 'Index.md')).toBe(
				`Cr\u00e8me/${nfd} menu.pdf`,
			);
		});
		it('finds an NFC file from an NFD link', () => {
			const nfcVault = new LinkResolver([`${nfc}.md`]);
			expect(nfcVault.getFirstLinkpathDest(nfd, 'Index.md')).toBe(`${nfc}.md`);
			expect(nfcVault.getFirstLinkpathDest(`./${nfd}`, 'Index.md')).toBe(`${nfc}.md`);
		});
		it('prefers the same-folder file under NFD source paths too', () => {
			const v = new LinkResolver([`${nfd}/dup.md`, 'other/dup.md']);
			expect(v.getFirstLinkpathDest('dup', `${nfc}/source.md`)).toBe(`${nfd}/dup.md`);
		});
	});

	describe('add, remove, rename', () => {
		it('updates candidates incrementally, keeping the same order as a fresh build', () => {
			const live = new LinkResolver(['y/dup.md']);
			expect(live.getFirstLinkpathDest('dup', 'k/s.md')).toBe('y/dup.md');
			expect(live.addFile('a/dup.md')).toBe(true);
			expect(live.addFile('a/dup.md')).toBe(false);
			expect(live.getFirstLinkpathDest('dup', 'k/s.md')).toBe('a/dup.md');
			expect(live.renameFile('a/dup.md', 'zz/long/dup.md')).toBe(true);
			expect(live.getFirstLinkpathDest('dup', 'k/s.md')).toBe('y/dup.md');
			expect(live.getFirstLinkpathDest('dup', 'zz/s.md')).toBe('zz/long/dup.md');
			expect(live.removeFile('y/dup.md')).toBe(true);
			expect(live.removeFile('y/dup.md')).toBe(false);
			expect(live.getFirstLinkpathDest('dup', 'k/s.md')).toBe('zz/long/dup.md');
			expect(live.renameFile('missing.md', 'x.md')).toBe(false);
			expect(live.size).toBe(1);
			expect(live.hasFile('zz/long/dup.md')).toBe(true);
		});
		it('forgets a name once its last file is removed', () => {
			const live = new LinkResolver(['only.md']);
			live.removeFile('only.md');
			expect(live.getFirstLinkpathDest('only', 'x.md')).toBeNull();
			live.addFile('again/only.md');
			expect(live.getFirstLinkpathDest('only', 'x.md')).toBe('again/only.md');
		});
	});
});
