/**
 * Run Tool's input, asked the way a person gives it: one step per parameter (an input box with
 * type-aware checks, or a pick for enums and booleans), defaults pre-filled, optional parameters
 * skippable, Back to the previous step, and "Edit as JSON" on every step for the whole input at
 * once. The rules are in view-text/tool-input.ts; this file only shows them.
 */
import * as vscode from 'vscode';
import type { RegisteredTool } from '../../core/registry/snapshot';
import type { ParameterStep } from '../view-text/tool-input';
import { initialText, missingRequired, parameterSteps, parseAnswer, pickChoices, promptOf } from '../view-text/tool-input';
import { parseToolInput, sampleInput } from '../view-text/scaffold';

/** The button on every step that switches to editing the whole input as JSON. */
const EDIT_AS_JSON: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('json'), tooltip: 'Edit as JSON' };

/** One step's outcome; undefined when the person cancelled (Escape, or the box lost focus and closed). */
type StepAnswer = { readonly kind: 'value'; readonly value: unknown } | { readonly kind: 'skip' } | { readonly kind: 'json' } | { readonly kind: 'back' };

/** What a step needs to know besides its parameter. */
interface StepContext {
  readonly title: string;
  readonly index: number;
  readonly total: number;
  readonly previous: unknown;
}

/**
 * Asks for each parameter of `tool` in turn; resolves to the input, or undefined when cancelled.
 * A tool without parameters asks nothing.
 */
export async function askToolInput(tool: RegisteredTool): Promise<Record<string, unknown> | undefined> {
  const schema = tool.definition.inputSchema;
  const steps = parameterSteps(schema);
  const answers: Record<string, unknown> = {};
  let index = 0;
  while (index < steps.length) {
    const step = steps[index] as ParameterStep;
    const context = { title: `Run ${tool.definition.name}: ${step.name}`, index, total: steps.length, previous: answers[step.name] };
    const answer = step.kind === 'enum' || step.kind === 'boolean' ? await pickStep(step, context) : await textStep(step, context);
    if (answer === undefined) {
      return undefined;
    }
    if (answer.kind === 'json') {
      return askJson(tool, { ...sampleInput(schema), ...answers });
    }
    if (answer.kind === 'back') {
      index = Math.max(0, index - 1);
      continue;
    }
    if (answer.kind === 'skip') {
      delete answers[step.name];
    } else {
      answers[step.name] = answer.value;
    }
    index += 1;
  }
  return answers;
}

/** Shows a quick input until it settles on an answer; disposing it (or Escape) settles on undefined. */
function settle<T extends vscode.QuickInput>(input: T, wire: (finish: (answer: StepAnswer | undefined) => void) => void): Promise<StepAnswer | undefined> {
  return new Promise((resolve) => {
    let done = false;
    const finish = (answer: StepAnswer | undefined): void => {
      if (!done) {
        done = true;
        resolve(answer);
        input.dispose();
      }
    };
    input.onDidHide(() => finish(undefined));
    wire(finish);
    input.show();
  });
}

function buttonsOf(context: StepContext): vscode.QuickInputButton[] {
  return [...(context.index > 0 ? [vscode.QuickInputButtons.Back] : []), EDIT_AS_JSON];
}

function textStep(step: ParameterStep, context: StepContext): Promise<StepAnswer | undefined> {
  const box = vscode.window.createInputBox();
  box.title = context.title;
  box.step = context.index + 1;
  box.totalSteps = context.total;
  box.prompt = promptOf(step);
  box.placeholder = step.kind === 'json' ? 'JSON, e.g. ["a", "b"] or {"key": "value"}' : step.name;
  box.value = initialText(step, context.previous);
  box.ignoreFocusOut = true;
  box.buttons = buttonsOf(context);
  return settle(box, (finish) => {
    box.onDidChangeValue((value) => {
      const parsed = parseAnswer(step, value);
      box.validationMessage = parsed.ok ? undefined : parsed.message;
    });
    box.onDidAccept(() => {
      const parsed = parseAnswer(step, box.value);
      if (!parsed.ok) {
        box.validationMessage = parsed.message;
        return;
      }
      finish(parsed.skip ? { kind: 'skip' } : { kind: 'value', value: parsed.value });
    });
    box.onDidTriggerButton((button) => finish(button === vscode.QuickInputButtons.Back ? { kind: 'back' } : { kind: 'json' }));
  });
}

interface ChoiceItem extends vscode.QuickPickItem {
  readonly answer: StepAnswer;
}

function pickStep(step: ParameterStep, context: StepContext): Promise<StepAnswer | undefined> {
  const pick = vscode.window.createQuickPick<ChoiceItem>();
  pick.title = context.title;
  pick.step = context.index + 1;
  pick.totalSteps = context.total;
  pick.placeholder = promptOf(step);
  pick.ignoreFocusOut = true;
  pick.buttons = buttonsOf(context);
  const { choices, active } = pickChoices(step, context.previous);
  const items: ChoiceItem[] = choices.map((choice) => ({
    label: choice.label,
    ...(choice.description === undefined ? {} : { description: choice.description }),
    answer: choice.skip ? { kind: 'skip' } : { kind: 'value', value: choice.value },
  }));
  items.push({ label: '$(json) Edit as JSON…', description: 'the whole input', answer: { kind: 'json' } });
  pick.items = items;
  pick.activeItems = active === undefined ? [] : items.slice(active, active + 1);
  return settle(pick, (finish) => {
    pick.onDidAccept(() => {
      const [chosen] = pick.selectedItems;
      if (chosen !== undefined) {
        finish(chosen.answer);
      }
    });
    pick.onDidTriggerButton((button) => finish(button === vscode.QuickInputButtons.Back ? { kind: 'back' } : { kind: 'json' }));
  });
}

/** The whole input as one JSON object (the escape hatch), pre-filled with what was given so far. */
async function askJson(tool: RegisteredTool, start: Record<string, unknown>): Promise<Record<string, unknown> | undefined> {
  const text = await vscode.window.showInputBox({
    title: `Run ${tool.definition.name}`,
    prompt: 'The whole input as a JSON object (pre-filled with the defaults and what you gave so far)',
    value: JSON.stringify(start),
    ignoreFocusOut: true,
    validateInput: (value) => {
      const parsed = parseToolInput(value);
      const problem = parsed.ok ? missingRequired(tool.definition.inputSchema, parsed.value) : parsed.message;
      return problem === undefined ? undefined : { message: problem, severity: vscode.InputBoxValidationSeverity.Error };
    },
  });
  if (text === undefined) {
    return undefined;
  }
  const parsed = parseToolInput(text);
  return parsed.ok && missingRequired(tool.definition.inputSchema, parsed.value) === undefined ? parsed.value : undefined;
}
