import type { Command } from '../command';
import { baseCommand } from './base';
import { configCommand } from './config';
import { indexCommand } from './index-command';
import { mcpCommand } from './mcp';
import { noteCommand, statusCommand } from './note';
import { packCommand } from './pack';
import { filterCommand, graphCommand, lookupCommand, textSearchCommand } from './reader';
import { schemaCommand } from './schema';
import { searchCommand } from './search';
import { serverCommand } from './server';
import { STRUCTURAL_COMMANDS } from './structural';

/** Every CLI command, in the order `--help` lists them. */
export const COMMANDS: Command[] = [
	...STRUCTURAL_COMMANDS,
	searchCommand,
	lookupCommand,
	filterCommand,
	graphCommand,
	textSearchCommand,
	packCommand,
	baseCommand,
	noteCommand,
	statusCommand,
	indexCommand,
	serverCommand,
	mcpCommand,
	configCommand,
	schemaCommand,
];
