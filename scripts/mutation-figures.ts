// `npm run test:mutation` prints Stryker's own table; this reads its JSON report
// (.stryker/mutation.json) and prints, per file, the score over the mutants that change behaviour:
// a mutant that only changes the text of a message (a string or template literal with a space in
// it: a reason, a detail, an error's words) is counted apart, as issue 56 asks. With --survivors it
// lists each surviving behaviour mutant, by file and line, with what it replaced.
import { readFileSync } from 'node:fs';
import ts from 'typescript';

interface Mutant {
  mutatorName: string;
  replacement?: string;
  status: 'Killed' | 'Survived' | 'NoCoverage' | 'Timeout' | 'CompileError' | 'RuntimeError' | 'Ignored' | 'Pending';
  location: { start: { line: number; column: number }; end: { line: number; column: number } };
}

const report = JSON.parse(readFileSync(new URL('../.stryker/mutation.json', import.meta.url), 'utf8')) as { files: Record<string, { source: string; mutants: Mutant[] }> };

/** The source text a mutant replaced. */
function original(source: string, mutant: Mutant): string {
  const lines = source.split('\n');
  const { start, end } = mutant.location;
  if (start.line === end.line) return lines[start.line - 1]!.slice(start.column - 1, end.column - 1);
  return [lines[start.line - 1]!.slice(start.column - 1), ...lines.slice(start.line, end.line - 1), lines[end.line - 1]!.slice(0, end.column - 1)].join('\n');
}

/** Properties whose value is words for a person: a check's detail, a refusal's reason, an error's message. */
const WORDS = new Set(['detail', 'message', 'reason', 'meaning', 'title', 'hint', 'description']);
/** Calls whose arguments are words: an error's constructor, a refusal, a finding's text. */
const WORDING_CALLS = /^(?:refuse|badSignature|mismatch|push|join)$|Error$/;

/**
 * Whether a mutant changes only the words of a message: a string with a space in it, or anything
 * inside a template literal with a space in its text, the value of a `detail`/`message`/`reason`
 * property, or the arguments of an error's constructor or a refusal; read off the TypeScript syntax
 * tree of the file, innermost node first.
 */
function wordsOnly(file: string, source: string, mutant: Mutant): boolean {
  if (mutant.mutatorName === 'StringLiteral' && /\s/.test(original(source, mutant))) return true;
  const tree = (trees[file] ??= ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true));
  const lineStarts = tree.getLineStarts();
  const start = lineStarts[mutant.location.start.line - 1]! + mutant.location.start.column - 1;
  const end = lineStarts[mutant.location.end.line - 1]! + mutant.location.end.column - 1;
  let node: ts.Node | undefined = tree;
  for (;;) {
    const child: ts.Node | undefined = node.getChildren(tree).find((candidate) => candidate.getStart(tree) <= start && candidate.getEnd() >= end);
    if (!child) break;
    node = child;
  }
  for (let at: ts.Node | undefined = node; at; at = at.parent) {
    if ((ts.isTemplateExpression(at) || ts.isNoSubstitutionTemplateLiteral(at)) && /\s/.test(at.getText(tree).replace(/\$\{[^}]*\}/g, ''))) return true;
    if (ts.isPropertyAssignment(at) && WORDS.has(at.name.getText(tree))) return true;
    if ((ts.isCallExpression(at) || ts.isNewExpression(at)) && at.arguments?.some((argument) => argument.getStart(tree) <= start && argument.getEnd() >= end)) {
      const callee = ts.isPropertyAccessExpression(at.expression) ? at.expression.name.getText(tree) : at.expression.getText(tree);
      if (WORDING_CALLS.test(callee) && !/^(?:push|join)$/.test(callee)) return true;
    }
    if (ts.isFunctionLike(at) || ts.isSourceFile(at)) break;
  }
  return false;
}
const trees: Record<string, ts.SourceFile> = {};

const rows = [];
const survivors: string[] = [];
for (const [file, { source, mutants }] of Object.entries(report.files)) {
  const counted = mutants.filter((mutant) => mutant.status !== 'Ignored' && mutant.status !== 'CompileError' && mutant.status !== 'RuntimeError');
  const behaviour = counted.filter((mutant) => !wordsOnly(file, source, mutant));
  const detected = behaviour.filter((mutant) => mutant.status === 'Killed' || mutant.status === 'Timeout');
  const all = counted.filter((mutant) => mutant.status === 'Killed' || mutant.status === 'Timeout');
  rows.push({
    file,
    mutants: counted.length,
    'all killed %': Number(((100 * all.length) / Math.max(1, counted.length)).toFixed(1)),
    'behaviour mutants': behaviour.length,
    'behaviour killed %': Number(((100 * detected.length) / Math.max(1, behaviour.length)).toFixed(1)),
    'behaviour survivors': behaviour.length - detected.length,
  });
  for (const mutant of behaviour.filter((entry) => entry.status === 'Survived' || entry.status === 'NoCoverage')) {
    survivors.push(`${file}:${mutant.location.start.line} ${mutant.mutatorName} ${mutant.status}: ${JSON.stringify(original(source, mutant).slice(0, 100))} -> ${JSON.stringify((mutant.replacement ?? '').slice(0, 100))}`);
  }
}
console.table(rows);
if (process.argv.includes('--survivors')) for (const line of survivors) console.log(line);
