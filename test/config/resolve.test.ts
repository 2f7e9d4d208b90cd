import { describe, expect, it } from 'vitest';
import { resolveConfig, switchProfile } from '../../src/core/config/resolve';
import { PROFILES } from '../../src/core/config/profiles';
import { DEFAULT_PLUGIN_SETTINGS } from '../../src/core/config/settings';

const TEAM = PROFILES['team-folders']!.settings;

describe('settings layers: defaults, profile, data.json, flags', () => {
	it('defaults are neutral: no folders excluded, no authority order, sorted by path, no keyword index, whole vault for the reader', () => {
		const { settings, origins } = resolveConfig();
		expect(settings.excludedFolders).toEqual([]);
		expect(settings.authorityOrder).toEqual([]);
		expect(settings.sort).toBe('path');
		expect(settings.keywordIndexPath).toBe('');
		expect(settings.readerFolders).toEqual([]);
		expect(settings.profile).toBe('');
		expect(new Set(Object.values(origins))).toEqual(new Set(['default']));
	});

	it('a profile named in data.json applies, and values data.json holds win over it', () => {
		const { settings, origins } = resolveConfig({
			saved: { value: { profile: 'team-folders', excludedFolders: ['private/'] }, label: 'data.json' },
		});
		expect(settings.profile).toBe('team-folders');
		expect(settings.authorityOrder).toEqual(TEAM.authorityOrder);
		expect(settings.readerFolders).toEqual(['Notes/', 'skill-lab/']);
		expect(settings.excludedFolders).toEqual(['private/']);
		expect(origins.excludedFolders).toBe('data.json');
		expect(origins.authorityOrder).toBe('profile team-folders (data.json)');
	});

	it('--profile overrides data.json for the keys profiles set; --profile none resets them to the defaults', () => {
		const saved = { value: { profile: 'team-folders', linksKey: 'related' }, label: 'data.json' };
		const none = resolveConfig({ saved, profile: 'none' });
		expect(none.settings.authorityOrder).toEqual([]);
		expect(none.settings.excludedFolders).toEqual([]);
		expect(none.settings.profile).toBe('');
		expect(none.settings.linksKey).toBe('related'); // not a profile key: data.json still decides
		expect(none.origins.authorityOrder).toBe('default');
		const team = resolveConfig({ profile: 'Team-Folders' });
		expect(team.settings.profile).toBe('team-folders');
		expect(team.origins.keywordIndexPath).toBe('--profile team-folders');
	});

	it("the profile's former name is still accepted, in data.json and --profile, and answers under its current name", () => {
		const saved = resolveConfig({ saved: { value: { profile: 'ob1' }, label: 'data.json' } });
		expect(saved.notes).toEqual([]);
		expect(saved.settings.profile).toBe('team-folders');
		expect(saved.settings.authorityOrder).toEqual(TEAM.authorityOrder);
		expect(saved.origins.authorityOrder).toBe('profile team-folders (data.json)');
		const flag = resolveConfig({ profile: 'OB1' });
		expect(flag.settings.profile).toBe('team-folders');
		expect(flag.settings.readerFolders).toEqual(TEAM.readerFolders);
	});

	it('flags win over everything and say so', () => {
		const { settings, origins } = resolveConfig({
			saved: { value: { linksKey: 'related', sort: 'title' }, label: 'data.json' },
			overrides: [{ key: 'linksKey', value: 'up', label: '--links-key' }],
		});
		expect(settings.linksKey).toBe('up');
		expect(origins.linksKey).toBe('--links-key');
		expect(settings.sort).toBe('title');
		expect(origins.sort).toBe('data.json');
	});

	it('an unknown profile or a malformed file is a note, never a crash; null (no file yet) is no note', () => {
		expect(resolveConfig({ saved: { value: { profile: 'nope' }, label: 'data.json' } }).notes[0]).toMatch(
			/unknown profile "nope"; profiles: team-folders, none/,
		);
		expect(resolveConfig({ saved: { value: [1, 2], label: 'data.json' } }).notes[0]).toMatch(/not a JSON object/);
		expect(resolveConfig({ saved: { value: null, label: 'data.json' } }).notes).toEqual([]);
		expect(
			resolveConfig({ saved: { value: { sort: 'size', excludedFolders: 3 }, label: 'data.json' } }).settings.sort,
		).toBe('path');
	});

	it('switching profile in the settings tab rewrites the keys profiles set and keeps the rest', () => {
		const custom = { ...DEFAULT_PLUGIN_SETTINGS, linksKey: 'related', excludedFolders: ['x/'] };
		const on = switchProfile(custom, 'team-folders');
		expect(on.excludedFolders).toEqual(TEAM.excludedFolders);
		expect(on.linksKey).toBe('related');
		const off = switchProfile(on, '');
		expect(off.excludedFolders).toEqual([]);
		expect(off.authorityOrder).toEqual([]);
		expect(off.profile).toBe('');
	});
});
