import { normalizePath, type Setting } from 'obsidian';
import { TOKEN_ESTIMATOR } from '../core/pack/pack';
import type { IndexState } from '../obsidian/index-lifecycle';
import type { PluginEngine } from '../obsidian/plugin-engine';
import { PROFILES } from '../core/config/profiles';
import { switchProfile } from '../core/config/resolve';
import { SORT_ORDERS, type SortOrder } from '../core/settings';
import { parseSynthesisMarker, type PluginSettings } from './plugin-settings';
import { busyButton } from './dom';
import { savedIndexHost, savedIndexRow, type SavedIndexHost } from './saved-index-row';

/**
 * The settings tab's content as data: groups of rows, each a name, a description and a function
 * that adds its control to an Obsidian `Setting`. The tab renders them imperatively (`display()`,
 * for Obsidian before 1.13) and declaratively (`getSettingDefinitions()`, searchable from 1.13),
 * from this one list.
 */

/** The readiness and size of the indexes, for the status row. */
export interface IndexStatus {
	/** Obsidian's metadata index, as the API reports it. */
	state: IndexState;
	/** Notes Obsidian has in the vault. */
	notes: number;
	/** Notes in the ranked-search index, or null while it builds. */
	searchNotes: number | null;
	/** How long the last ranked-search build took (ms), or null. */
	buildMs: number | null;
}

/** The status row's figures from the engine's status. */
export function indexStatusOf(status: {
	state: IndexState;
	notes: number;
	indexed: number | null;
	build_ms: number | null;
}): IndexStatus {
	return { state: status.state, notes: status.notes, searchNotes: status.indexed, buildMs: status.build_ms };
}

/** The index rows' part of the host, over the plugin's engine: its status and its saved index. */
export function indexHost(engine: PluginEngine): Pick<SettingsHost, 'status' | 'savedIndex'> {
	return { status: () => indexStatusOf(engine.status()), savedIndex: savedIndexHost(engine) };
}

/** What the rows change and run. */
export interface SettingsHost {
	/** The live settings object (rows write into it). */
	settings(): PluginSettings;
	/** Persists the settings; `searchChanged` when the ranked-search index must be rebuilt. */
	save(searchChanged: boolean): void;
	/** Rebuilds the ranked-search index now; resolves when it is built. */
	rebuild(): Promise<void>;
	/** The indexes' status. */
	status(): IndexStatus;
	/** Draws the tab again (after a change that sets other rows, such as the profile). */
	redisplay(): void;
	/** The saved search index (absent: the row is not shown). */
	savedIndex?: SavedIndexHost;
}

/** One row of the tab. */
export interface SettingsRow {
	name: string;
	desc: string;
	/** Adds the control (none for a read-only row). */
	render(setting: Setting): void;
}

/** A headed group of rows. */
export interface SettingsGroup {
	heading: string;
	rows: SettingsRow[];
}

/** One folder per line, each ending in `/`, blanks dropped. */
export function parseFolderLines(text: string): string[] {
	return text
		.split('\n')
		.map((line) => line.trim())
		.filter((line) => line !== '')
		.map((line) => `${normalizePath(line)}/`);
}

/** One tier per line, folders separated by commas. */
export function parseTiers(text: string): string[][] {
	return text
		.split('\n')
		.map((line) => parseFolderLines(line.split(',').join('\n')))
		.filter((tier) => tier.length > 0);
}

/** A whole number at least `min`, or null. */
export function parseWhole(text: string, min: number): number | null {
	const value = Number(text.trim());
	return text.trim() !== '' && Number.isInteger(value) && value >= min ? value : null;
}

/** The status row's words. */
export function statusText(status: IndexStatus): string {
	const obsidian =
		status.state === 'ready'
			? `Obsidian's index is ready: ${status.notes.toLocaleString('en-US')} notes.`
			: status.state === 'indexing'
				? 'Obsidian is still indexing the vault.'
				: 'The vault is still loading.';
	const ranked =
		status.searchNotes === null
			? 'The ranked-search index is being built.'
			: `Ranked search: ${status.searchNotes.toLocaleString('en-US')} notes indexed${status.buildMs === null ? '' : ` in ${status.buildMs.toLocaleString('en-US')} ms`}.`;
	return `${obsidian} ${ranked}`;
}

/** The settings whose values are of type `T` (a row's control reads and writes one of them). */
type KeyOf<T> = {
	[K in keyof PluginSettings]: PluginSettings[K] extends T ? (T extends PluginSettings[K] ? K : never) : never;
}[keyof PluginSettings];

/** A text area for the folder list `key`, one folder per line. */
function folderArea(host: SettingsHost, key: KeyOf<string[]>, search: boolean): (setting: Setting) => void {
	const s = host.settings();
	return (setting) => {
		setting.addTextArea((area) => {
			area.setValue(s[key].join('\n')).onChange((value) => {
				s[key] = parseFolderLines(value);
				host.save(search);
			});
			area.inputEl.rows = 4;
			area.inputEl.addClass('vault-query-setting-area');
		});
	};
}

/** A number field for `key`, a whole number at least `min`. */
function numberField(host: SettingsHost, key: KeyOf<number>, min: number, search: boolean): (setting: Setting) => void {
	const s = host.settings();
	return (setting) => {
		setting.addText((text) => {
			text.inputEl.type = 'number';
			text.inputEl.min = String(min);
			text.setValue(String(s[key])).onChange((value) => {
				const n = parseWhole(value, min);
				text.inputEl.toggleClass('is-invalid', n === null);
				if (n === null) return;
				s[key] = n;
				host.save(search);
			});
		});
	};
}

/** A vault path field for `key`; emptied, it sets '' (none), or keeps the path it had if `required`. */
function pathField(
	host: SettingsHost,
	key: KeyOf<string>,
	placeholder: string,
	search: boolean,
	required = false,
): (setting: Setting) => void {
	const s = host.settings();
	return (setting) => {
		setting.addText((text) =>
			text
				.setPlaceholder(placeholder)
				.setValue(s[key])
				.onChange((value) => {
					const path = value.trim() === '' ? '' : normalizePath(value.trim());
					if (path !== '' || !required) s[key] = path;
					host.save(search);
				}),
		);
	};
}

/** A toggle for `key`. */
function toggle(host: SettingsHost, key: KeyOf<boolean>): (setting: Setting) => void {
	const s = host.settings();
	return (setting) => {
		setting.addToggle((t) =>
			t.setValue(s[key]).onChange((on) => {
				s[key] = on;
				host.save(false);
			}),
		);
	};
}

/** The sort orders as the dropdown shows them. */
const SORT_LABELS: Record<SortOrder, string> = { path: 'Path', mtime: 'Last modified', title: 'Title' };

/** The profile row: a team's conventions in one choice; choosing one rewrites the rows it sets. */
function profileRow(host: SettingsHost): SettingsRow {
	const s = host.settings();
	const names = Object.keys(PROFILES);
	return {
		name: 'Profile',
		desc: `Conventions of one team's vault, applied in one step (${Object.entries(PROFILES)
			.map(([n, p]) => `${n}: ${p.description}`)
			.join('; ')}). None: only Obsidian's own rules.`,
		render: (setting) => {
			setting.addDropdown((dropdown) => {
				dropdown.addOption('', 'None');
				for (const name of names) dropdown.addOption(name, name);
				dropdown.setValue(s.profile).onChange((value) => {
					Object.assign(s, switchProfile(s, value));
					host.save(true);
					host.redisplay();
				});
			});
		},
	};
}

function queryRows(host: SettingsHost): SettingsRow[] {
	const s = host.settings();
	return [
		profileRow(host),
		{
			name: 'Excluded folders',
			desc: "Never searched, one folder per line: queries, ranked search, the side panel, code blocks and context packs. Obsidian's own Excluded files (Files and links) are always left out too.",
			render: folderArea(host, 'excludedFolders', true),
		},
		{
			name: 'Authority folder order',
			desc: 'Results from earlier lines come first; one tier per line, folders separated by commas.',
			render: (setting) => {
				setting.addTextArea((area) => {
					area.setValue(s.authorityOrder.map((tier) => tier.join(', ')).join('\n')).onChange((value) => {
						s.authorityOrder = parseTiers(value);
						host.save(false);
					});
					area.inputEl.rows = 4;
					area.inputEl.addClass('vault-query-setting-area');
				});
			},
		},
		{
			name: 'Sort results by',
			desc: 'The order of query results (within an authority tier): path, last modified (newest first) or title.',
			render: (setting) => {
				setting.addDropdown((dropdown) => {
					for (const order of SORT_ORDERS) dropdown.addOption(order, SORT_LABELS[order]);
					dropdown.setValue(s.sort).onChange((value) => {
						s.sort = SORT_ORDERS.find((order) => order === value) ?? 'path';
						host.save(false);
					});
				});
			},
		},
		{
			name: 'Date properties',
			desc: "Properties that date a note in results and context packs, first one set wins, comma-separated; without one, the file's modification time is used and marked as such.",
			render: (setting) => {
				setting.addText((text) =>
					text.setValue(s.dateFields.join(', ')).onChange((value) => {
						s.dateFields = value
							.split(',')
							.map((v) => v.trim())
							.filter((v) => v !== '');
						host.save(true);
					}),
				);
			},
		},
		{
			name: 'Result limit',
			desc: 'Results of a query command when it names no limit.',
			render: numberField(host, 'defaultLimit', 1, false),
		},
		{
			name: 'Excerpt length',
			desc: "Characters of a note's text shown under a query result.",
			render: numberField(host, 'excerptChars', 0, false),
		},
	];
}

function searchRows(host: SettingsHost): SettingsRow[] {
	const s = host.settings();
	return [
		{
			name: 'Ranked results',
			desc: 'Hits the search shows (modal, side panel, code blocks, the API) when none is asked for.',
			render: numberField(host, 'searchLimit', 1, true),
		},
		{
			name: 'Snippet length',
			desc: 'Characters of the snippet under a ranked hit.',
			render: numberField(host, 'searchExcerptChars', 20, true),
		},
		{
			name: 'Keyword index note',
			desc: 'A note listing curated keywords per note (hidden folders allowed); its hits rank like aliases. Empty: none.',
			render: pathField(host, 'keywordIndexPath', '.claude/index.md', true),
		},
		{
			name: 'Synonym note',
			desc: 'Lines such as "frontend: front-end, web" widen a search. Empty: none.',
			render: pathField(host, 'synonymsPath', 'synonyms.md', true),
		},
		{
			name: 'Priority marker',
			desc: 'The property that marks a priority note (a summary you wrote), as "Key: value"; such notes rank first when the query is about them. Empty: no boost.',
			render: (setting) => {
				setting.addText((text) =>
					text
						.setPlaceholder('Type: permanent')
						.setValue(s.synthesisMarker)
						.onChange((value) => {
							const ok = value.trim() === '' || parseSynthesisMarker(value) !== null;
							text.inputEl.toggleClass('is-invalid', !ok);
							if (!ok) return;
							s.synthesisMarker = value.trim();
							host.save(true);
						}),
				);
			},
		},
	];
}

function packRows(host: SettingsHost): SettingsRow[] {
	return [
		{
			name: 'Default budget',
			desc: 'Tokens a context pack may use when none is given (command, search modal, API).',
			render: numberField(host, 'packBudget', 1, false),
		},
		{
			name: 'Token estimator',
			desc: `${TOKEN_ESTIMATOR}. The only estimator: Chinese, Japanese and Korean text is about one token per character, everything else about four characters per token. The whole pack, headings included, stays within the budget.`,
			render: () => undefined,
		},
		{
			name: 'Include drafts',
			desc: 'Keep notes with status: draft in context packs.',
			render: toggle(host, 'packIncludeDrafts'),
		},
		{
			name: 'Include archived notes',
			desc: 'Keep archived notes (status archived, archived: true, an #archive tag) in context packs.',
			render: toggle(host, 'packIncludeArchived'),
		},
	];
}

function readerRows(host: SettingsHost): SettingsRow[] {
	return [
		{
			name: 'Schema note',
			desc: 'The note whose yaml block declares the frontmatter fields the schema-strict reads check against.',
			render: pathField(host, 'schemaPath', '_meta/frontmatter-schema.md', false, true),
		},
		{
			name: 'Schema-strict folders',
			desc: 'Folders the schema-strict reads search when a request names none; one per line.',
			render: folderArea(host, 'readerFolders', false),
		},
	];
}

function statusRow(host: SettingsHost): SettingsRow {
	return {
		name: 'Index status',
		desc: statusText(host.status()),
		render: (setting) => {
			setting.descEl.addClass('vault-query-index-status');
			busyButton(setting, 'Rebuild', 'Rebuild the ranked-search index', async () => {
				setting.setDesc(`Rebuilding… ${statusText(host.status())}`);
				await host.rebuild();
				setting.setDesc(statusText(host.status()));
			});
		},
	};
}

/** The tab's groups, in order. */
export function settingsGroups(host: SettingsHost): SettingsGroup[] {
	return [
		{ heading: 'Index', rows: [statusRow(host), ...(host.savedIndex ? [savedIndexRow(host.savedIndex)] : [])] },
		{ heading: 'Queries', rows: queryRows(host) },
		{ heading: 'Ranked search', rows: searchRows(host) },
		{ heading: 'Context packs', rows: packRows(host) },
		{ heading: 'Schema-strict reads', rows: readerRows(host) },
	];
}
