/**
 * The editor tools as every door lists them: names, what a model reads, input and output
 * schemas. No behaviour here: editor-tools.ts runs them against the editor's language services
 * (in the VS Code window), bridged-tools.ts forwards them to a window's bridge (in the MCP server
 * a terminal of that window started). Positions are 1-based lines and columns, as editors show
 * them; paths are relative to a workspace folder.
 */
import { FOLDER_PROPERTY } from '../builtins/folder';
import type { JsonObjectSchema, ToolTag } from '../types';

/** What a served tool is, without its run: what a door lists and validates against. */
export interface ToolSpec {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: JsonObjectSchema;
  readonly outputSchema?: JsonObjectSchema;
  /** The VS Code API the tool asks, for the tools view and `list`. */
  readonly handlerSummary: string;
}

const PATH = { type: 'string', minLength: 1, description: 'A file, relative to the workspace folder (for example "src/app.ts").' } as const;
const LINE = { type: 'integer', minimum: 1, description: 'Line number, 1-based (the first line is 1), as the editor shows it.' } as const;
const COLUMN = {
  type: 'integer',
  minimum: 1,
  description: 'Column, 1-based (the first character is 1), counted in characters as the editor counts them. Default 1.',
} as const;
const SYMBOL = {
  type: 'string',
  minLength: 1,
  description:
    'Instead of line and column: the name of a symbol (function, class, variable, ...). Looked up in the outline of "path" when given, else by workspace symbol search (exact name).',
} as const;

/** The input of a tool that points at a place: a position, or a symbol's name. */
const POSITION_INPUT: JsonObjectSchema = {
  type: 'object',
  properties: { path: PATH, line: LINE, column: COLUMN, symbol: SYMBOL, folder: FOLDER_PROPERTY },
  additionalProperties: false,
};

/** A range, 1-based, end exclusive: a location's and an editor selection's. */
const RANGE = {
  type: 'object',
  properties: { line: { type: 'integer' }, column: { type: 'integer' }, endLine: { type: 'integer' }, endColumn: { type: 'integer' } },
  required: ['line', 'column', 'endLine', 'endColumn'],
} as const;

/** A range in a workspace file. */
const LOCATION = {
  type: 'object',
  properties: {
    folder: { type: 'string', description: 'The workspace folder the file is in (its name).' },
    path: { type: 'string', description: 'The file, relative to that folder, with / separators.' },
    ...RANGE.properties,
  },
  required: ['folder', 'path', ...RANGE.required],
} as const;

const LEFT_OUT = {
  type: 'integer',
  description: 'How many answers named files outside the workspace folders and were left out.',
} as const;

const LIMIT = (defaultValue: number, what: string): Record<string, unknown> => ({
  type: 'integer',
  minimum: 1,
  maximum: 1000,
  default: defaultValue,
  description: `Most ${what} returned (default ${defaultValue}).`,
});

const TARGET = {
  type: 'object',
  description: 'The place the question was asked at (the symbol\'s name when "symbol" was given).',
  properties: { ...LOCATION.properties },
  required: ['folder', 'path', 'line', 'column'],
} as const;

export const EDITOR_DIAGNOSTICS: ToolSpec = {
  name: 'editor-diagnostics',
  title: 'Editor Diagnostics',
  description:
    "The problems VS Code's Problems panel shows (type errors, lint findings) from the editor's language services: for the whole workspace or one file, each with its file, 1-based line and column, severity, source and message. Language services check the files they have open (TypeScript: open files and their project), so a file never opened may show none.",
  inputSchema: {
    type: 'object',
    properties: {
      path: { ...PATH, description: 'Only this file, relative to the workspace folder. Default: every file with problems.' },
      severity: {
        type: 'string',
        enum: ['error', 'warning', 'information', 'hint'],
        default: 'hint',
        description: 'The least severe problem to include: "error" for errors only, "warning" for errors and warnings, ... Default "hint" (all).',
      },
      limit: LIMIT(200, 'problems'),
      folder: FOLDER_PROPERTY,
    },
    additionalProperties: false,
  },
  outputSchema: {
    type: 'object',
    properties: {
      diagnostics: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            ...LOCATION.properties,
            severity: { type: 'string', enum: ['error', 'warning', 'information', 'hint'] },
            message: { type: 'string' },
            source: { type: 'string' },
            code: { type: 'string' },
          },
          required: [...LOCATION.required, 'severity', 'message'],
        },
      },
      total: { type: 'integer', description: 'How many problems matched, before the limit.' },
      outsideWorkspace: LEFT_OUT,
    },
    required: ['diagnostics', 'total', 'outsideWorkspace'],
  },
  handlerSummary: 'vscode.languages.getDiagnostics',
};

export const EDITOR_DEFINITION: ToolSpec = {
  name: 'editor-definition',
  title: 'Go to Definition',
  description:
    "Where a symbol is defined, as VS Code's Go to Definition finds it with the editor's language services: give a position (path, 1-based line and column, on the symbol's name) or a symbol's name. Returns workspace-relative files with 1-based ranges; definitions outside the workspace (libraries) are left out and counted.",
  inputSchema: POSITION_INPUT,
  outputSchema: {
    type: 'object',
    properties: { target: TARGET, definitions: { type: 'array', items: LOCATION }, outsideWorkspace: LEFT_OUT },
    required: ['target', 'definitions', 'outsideWorkspace'],
  },
  handlerSummary: 'vscode.executeDefinitionProvider',
};

export const EDITOR_REFERENCES: ToolSpec = {
  name: 'editor-references',
  title: 'Find References',
  description:
    "Every use of a symbol across the workspace, as VS Code's Find All References finds it (the declaration included): give a position (path, 1-based line and column, on the symbol's name) or a symbol's name. Returns workspace-relative files with 1-based ranges; uses outside the workspace are left out and counted.",
  inputSchema: {
    ...POSITION_INPUT,
    properties: { ...POSITION_INPUT.properties, limit: LIMIT(200, 'references') },
  },
  outputSchema: {
    type: 'object',
    properties: { target: TARGET, references: { type: 'array', items: LOCATION }, total: { type: 'integer' }, outsideWorkspace: LEFT_OUT },
    required: ['target', 'references', 'total', 'outsideWorkspace'],
  },
  handlerSummary: 'vscode.executeReferenceProvider',
};

export const EDITOR_SYMBOLS: ToolSpec = {
  name: 'editor-symbols',
  title: 'Editor Symbols',
  description:
    "Symbols from the editor's language services: with \"query\", a workspace symbol search (VS Code's Go to Symbol in Workspace: functions, classes, interfaces, ... whose name matches); with \"path\", that file's outline (every symbol in it, nested ones with their container). Each with its kind and 1-based place.",
  inputSchema: {
    type: 'object',
    properties: {
      query: { type: 'string', minLength: 1, description: 'Search the workspace for symbols whose name matches this text.' },
      path: { ...PATH, description: 'Instead of a query: the outline of this file, relative to the workspace folder.' },
      limit: LIMIT(100, 'symbols'),
      folder: FOLDER_PROPERTY,
    },
    additionalProperties: false,
  },
  outputSchema: {
    type: 'object',
    properties: {
      symbols: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            name: { type: 'string' },
            kind: { type: 'string', description: 'VS Code\'s symbol kind: "Function", "Class", "Variable", ...' },
            container: { type: 'string', description: 'The symbol it is declared in, if any.' },
            ...LOCATION.properties,
          },
          required: ['name', 'kind', ...LOCATION.required],
        },
      },
      total: { type: 'integer' },
      outsideWorkspace: LEFT_OUT,
    },
    required: ['symbols', 'total', 'outsideWorkspace'],
  },
  handlerSummary: 'vscode.executeWorkspaceSymbolProvider, vscode.executeDocumentSymbolProvider',
};

export const EDITOR_HOVER: ToolSpec = {
  name: 'editor-hover',
  title: 'Editor Hover',
  description:
    "What VS Code's hover shows at a position: the type of a variable or expression, a function's signature and its documentation, from the editor's language services. Give a position (path, 1-based line and column) or a symbol's name. Paths outside the workspace in the text are replaced by <outside the workspace>.",
  inputSchema: POSITION_INPUT,
  outputSchema: {
    type: 'object',
    properties: {
      target: TARGET,
      hover: { type: 'string', description: 'The hover\'s contents as markdown (type signatures in code blocks); empty when there is none.' },
    },
    required: ['target', 'hover'],
  },
  handlerSummary: 'vscode.executeHoverProvider',
};

export const EDITOR_OPEN_FILES: ToolSpec = {
  name: 'editor-open-files',
  title: 'Open Editors',
  description:
    'The files open in VS Code\'s editor tabs (workspace-relative, with unsaved changes marked) and the active editor with its selection (1-based) and the selected text: what the user is looking at now. Files outside the workspace folders are counted, not named.',
  inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  outputSchema: {
    type: 'object',
    properties: {
      active: {
        type: 'object',
        properties: {
          folder: { type: 'string' },
          path: { type: 'string' },
          selection: RANGE,
          selectedText: { type: 'string' },
        },
        required: ['folder', 'path', 'selection', 'selectedText'],
      },
      open: {
        type: 'array',
        items: {
          type: 'object',
          properties: { folder: { type: 'string' }, path: { type: 'string' }, languageId: { type: 'string' }, dirty: { type: 'boolean' } },
          required: ['folder', 'path', 'dirty'],
        },
      },
      outsideWorkspace: LEFT_OUT,
    },
    required: ['open', 'outsideWorkspace'],
  },
  handlerSummary: 'vscode.window.tabGroups, vscode.window.activeTextEditor',
};

/** Every editor tool only reads what the editor knows. */
export const EDITOR_TOOL_TAGS: readonly ToolTag[] = ['read'];

/** Every editor tool, in the order they are listed. */
export const EDITOR_TOOL_SPECS: readonly ToolSpec[] = [EDITOR_DIAGNOSTICS, EDITOR_DEFINITION, EDITOR_REFERENCES, EDITOR_SYMBOLS, EDITOR_HOVER, EDITOR_OPEN_FILES];

/** Their names: what a bridge answers besides the extension tools the user listed. */
export const EDITOR_TOOL_NAMES: readonly string[] = EDITOR_TOOL_SPECS.map((spec) => spec.name);
