/**
 * Run Tool's questions, one per parameter, from the tool's input schema: what kind of input
 * each one takes (text, a number, a pick), what is pre-filled, and what the person is told when
 * the text does not fit. Pure (no `vscode` import), so every rule is tested in plain Node; the
 * tool's own validation (ajv) still judges the whole input before anything runs.
 */
import type { JsonObjectSchema, JsonSchema } from '../../core/types';

/** How a parameter is asked for. `json`: objects, arrays, mixed types, anything else. */
export type ParameterKind = 'string' | 'number' | 'integer' | 'boolean' | 'enum' | 'json';

/** One question of Run Tool. */
export interface ParameterStep {
  readonly name: string;
  readonly kind: ParameterKind;
  readonly required: boolean;
  readonly description?: string;
  /** The schema's default, when it has one (`hasDefault` tells `undefined` apart). */
  readonly hasDefault: boolean;
  readonly defaultValue?: unknown;
  /** The allowed values of an `enum` parameter. */
  readonly values?: readonly unknown[];
  readonly minimum?: number;
  readonly maximum?: number;
}

/** What an answer means: a value, or no value (an optional parameter skipped). */
export type ParsedAnswer = { readonly ok: true; readonly skip: true } | { readonly ok: true; readonly skip: false; readonly value: unknown } | { readonly ok: false; readonly message: string };

/** The questions for a schema, required parameters first, each group in the schema's order. */
export function parameterSteps(schema: JsonObjectSchema): ParameterStep[] {
  const required = new Set(schema.required ?? []);
  const steps = Object.entries(schema.properties ?? {}).map(([name, property]) => stepOf(name, property, required.has(name)));
  return [...steps.filter((step) => step.required), ...steps.filter((step) => !step.required)];
}

function stepOf(name: string, property: JsonSchema, required: boolean): ParameterStep {
  const spec = typeof property === 'object' ? property : {};
  const base = {
    name,
    required,
    hasDefault: 'default' in spec,
    ...('default' in spec ? { defaultValue: spec.default } : {}),
    ...(typeof spec.description === 'string' ? { description: spec.description } : {}),
  };
  if (Array.isArray(spec.enum) && spec.enum.length > 0) {
    return { ...base, kind: 'enum', values: spec.enum as unknown[] };
  }
  const kind = kindOf(spec.type);
  if (kind === 'number' || kind === 'integer') {
    return {
      ...base,
      kind,
      ...(typeof spec.minimum === 'number' ? { minimum: spec.minimum } : {}),
      ...(typeof spec.maximum === 'number' ? { maximum: spec.maximum } : {}),
    };
  }
  return { ...base, kind };
}

/** `"string"`, or `["string", "null"]` (a nullable string), is text; two real types are JSON. */
function kindOf(type: unknown): ParameterKind {
  const types: unknown[] = (Array.isArray(type) ? (type as unknown[]) : [type]).filter((candidate) => candidate !== 'null');
  const only = types[0];
  if (types.length !== 1) {
    return 'json';
  }
  return only === 'string' || only === 'number' || only === 'integer' || only === 'boolean' ? only : 'json';
}

/** The text an input box starts with: the default (or what was typed before), as the person types it. */
export function initialText(step: ParameterStep, previous?: unknown): string {
  const value = previous !== undefined ? previous : step.hasDefault ? step.defaultValue : undefined;
  if (value === undefined) {
    return '';
  }
  return step.kind === 'string' && typeof value === 'string' ? value : JSON.stringify(value);
}

/** The line under the input box: the description, what kind of value, and whether it can be skipped. */
export function promptOf(step: ParameterStep): string {
  const kinds: Record<ParameterKind, string> = {
    string: 'text',
    number: 'a number',
    integer: 'a whole number',
    boolean: 'true or false',
    enum: 'one of the listed values',
    json: 'JSON',
  };
  const range = rangeText(step);
  const need = step.required ? 'required' : step.hasDefault ? 'optional: leave empty for the default' : 'optional: leave empty to skip';
  return [step.description, `${kinds[step.kind]}${range === '' ? '' : `, ${range}`} (${need})`].filter(Boolean).join(' — ');
}

function rangeText(step: ParameterStep): string {
  if (step.minimum !== undefined && step.maximum !== undefined) {
    return `${step.minimum} to ${step.maximum}`;
  }
  if (step.minimum !== undefined) {
    return `at least ${step.minimum}`;
  }
  return step.maximum === undefined ? '' : `at most ${step.maximum}`;
}

/**
 * What the typed text means for this parameter. Empty text skips an optional parameter (the tool
 * then applies its default); a required one needs a value, text too: a person who presses Enter
 * on an empty box has not given one, and the tool would run with "".
 */
export function parseAnswer(step: ParameterStep, text: string): ParsedAnswer {
  const trimmed = text.trim();
  if (trimmed === '') {
    return step.required ? { ok: false, message: `"${step.name}" is required: type a value.` } : { ok: true, skip: true };
  }
  switch (step.kind) {
    case 'string':
      return { ok: true, skip: false, value: text };
    case 'number':
    case 'integer':
      return parseNumber(step, trimmed);
    case 'boolean':
      return trimmed === 'true' || trimmed === 'false' ? { ok: true, skip: false, value: trimmed === 'true' } : { ok: false, message: 'Type true or false.' };
    case 'enum':
    case 'json':
      return parseJson(step, trimmed);
  }
}

function parseNumber(step: ParameterStep, text: string): ParsedAnswer {
  const value = text === '' ? Number.NaN : Number(text);
  if (!Number.isFinite(value)) {
    return { ok: false, message: step.kind === 'integer' ? 'Type a whole number, such as 10.' : 'Type a number, such as 10 or 2.5.' };
  }
  if (step.kind === 'integer' && !Number.isInteger(value)) {
    return { ok: false, message: `Type a whole number: ${text} has a fraction.` };
  }
  if (step.minimum !== undefined && value < step.minimum) {
    return { ok: false, message: `Type ${step.minimum} or more.` };
  }
  if (step.maximum !== undefined && value > step.maximum) {
    return { ok: false, message: `Type ${step.maximum} or less.` };
  }
  return { ok: true, skip: false, value };
}

function parseJson(step: ParameterStep, text: string): ParsedAnswer {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, message: 'Type a JSON value: text in "double quotes", a number, true, false, [a list] or {"an": "object"}.' };
  }
  if (step.kind === 'enum' && !(step.values ?? []).some((allowed) => JSON.stringify(allowed) === JSON.stringify(value))) {
    return { ok: false, message: `Choose one of ${(step.values ?? []).map((allowed) => JSON.stringify(allowed)).join(', ')}.` };
  }
  return { ok: true, skip: false, value };
}

/** How an enum value or a boolean reads in a pick list: text as it is, anything else as JSON. */
export function valueLabel(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The choices of a pick: the enum's values, or true and false. */
export function choicesOf(step: ParameterStep): readonly unknown[] {
  return step.kind === 'boolean' ? [true, false] : (step.values ?? []);
}

/** One entry of a pick step: a value, or leaving an optional parameter out. */
export interface PickChoice {
  readonly label: string;
  readonly description?: string;
  readonly skip: boolean;
  readonly value?: unknown;
}

/**
 * The entries of a pick step in order, and the one Enter takes at once (undefined: the first).
 * For an optional parameter that is "Skip" (the tool applies its own default), listed first: a
 * pick that opened on `false` had the person send a value they never chose. Going back to a step
 * opens it on the answer given there.
 */
export function pickChoices(step: ParameterStep, previous: unknown): { readonly choices: PickChoice[]; readonly active: number | undefined } {
  const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);
  const values: PickChoice[] = choicesOf(step).map((value) => ({
    label: valueLabel(value),
    ...(step.hasDefault && same(value, step.defaultValue) ? { description: 'default' } : {}),
    skip: false,
    value,
  }));
  const skip: PickChoice = { label: 'Skip', description: step.hasDefault ? `the tool uses its default, ${valueLabel(step.defaultValue)}` : 'leave it out', skip: true };
  const choices = step.required ? values : [skip, ...values];
  const chosen = previous === undefined ? -1 : choices.findIndex((choice) => !choice.skip && same(choice.value, previous));
  if (chosen >= 0) {
    return { choices, active: chosen };
  }
  if (!step.required) {
    return { choices, active: 0 };
  }
  const byDefault = step.hasDefault ? choices.findIndex((choice) => same(choice.value, step.defaultValue)) : -1;
  return { choices, active: byDefault >= 0 ? byDefault : undefined };
}

/**
 * Why a whole input (Run Tool's "Edit as JSON") cannot run yet: a required parameter that is
 * missing, or a required text that is empty. Undefined when each has a value; the tool's own
 * validation judges the rest.
 */
export function missingRequired(schema: JsonObjectSchema, input: Readonly<Record<string, unknown>>): string | undefined {
  for (const name of schema.required ?? []) {
    const value = input[name];
    if (value === undefined) {
      return `"${name}" is required: give it a value.`;
    }
    if (typeof value === 'string' && value.trim() === '' && kindOf((schema.properties?.[name] as { type?: unknown } | undefined)?.type) === 'string') {
      return `"${name}" is required: an empty text is no value.`;
    }
  }
  return undefined;
}
