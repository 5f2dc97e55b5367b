/** A registered tool as plain data, for listings outside the engine (the `list --json` command, the extension API). */
import type { JsonObjectSchema, ToolSource, ToolTag } from '../types';
import { isReadOnly } from '../types';
import type { RegisteredTool, ToolState } from './snapshot';

/** What a listing says about one tool. */
export interface ToolInfoData {
  readonly name: string;
  readonly title?: string;
  readonly description: string;
  readonly tags: readonly ToolTag[];
  readonly readOnly: boolean;
  readonly source: ToolSource;
  readonly inputSchema: JsonObjectSchema;
  readonly handlerSummary: string;
  readonly state: ToolState;
  readonly tokenEstimate: number;
}

/** The plain data of a registered tool. */
export function toolInfoOf(tool: RegisteredTool): ToolInfoData {
  const { definition } = tool;
  return {
    name: definition.name,
    ...(definition.title === undefined ? {} : { title: definition.title }),
    description: definition.description,
    tags: definition.tags,
    readOnly: isReadOnly(definition.tags),
    source: definition.source,
    inputSchema: definition.inputSchema,
    handlerSummary: definition.handlerSummary,
    state: tool.state,
    tokenEstimate: tool.tokenEstimate,
  };
}
