/**
 * The template language of plugin files, in one place: `{{name}}` placeholders (parsing and
 * where they are), the string form of a value, filling, and the `${env:NAME}` grammar.
 */
export type { TemplatePart } from './placeholders';
export { parseTemplate, placeholderNames, placeholderSpan, undeclaredPlaceholders, wholePlaceholder } from './placeholders';
export { isAbsent, stringForm } from './string-form';
export type { TemplateValues } from './fill';
export { fillText, fillValue, fillWhole } from './fill';
export { envReferenceProblem, fillEnvReferences, hasEnvReference } from './env-references';
