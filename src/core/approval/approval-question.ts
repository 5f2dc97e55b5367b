/**
 * The question every door asks before an approval, naming what the file serves: a file with only
 * prompts or resources is not asked about "tools" it does not have.
 */
import type { ApprovalSubject } from './approval-subject';

/** "tools", "prompts and resources", "tools, prompts and resources": what `subject` serves. */
export function servedNouns(subject: Pick<ApprovalSubject, 'tools' | 'prompts' | 'resources'>): string {
  const nouns = [
    subject.tools.length > 0 ? 'tools' : undefined,
    (subject.prompts?.length ?? 0) > 0 ? 'prompts' : undefined,
    (subject.resources?.length ?? 0) > 0 ? 'resources' : undefined,
  ].filter((noun) => noun !== undefined);
  const last = nouns.pop() ?? 'tools';
  return nouns.length === 0 ? last : `${nouns.join(', ')} and ${last}`;
}

/** `Approve the prompts of "team" (.vscode/tools/team.json)?` */
export function approvalQuestion(subject: ApprovalSubject, displayPath: string): string {
  return `Approve the ${servedNouns(subject)} of "${subject.pluginName}" (${displayPath})?`;
}
