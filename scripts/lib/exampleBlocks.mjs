// The ```ts blocks of the `@example` sections in a TypeScript file's doc comments, for
// scripts/check-examples.mjs.
import ts from 'typescript';

/** The doc comments (`/** … *\/`) of a source file, each with the 0-based line it starts on: the leading comments of every token, so never text inside a string. */
function docComments(text, fileName) {
  const sourceFile = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const seen = new Map();
  const visit = (node) => {
    for (const range of ts.getLeadingCommentRanges(text, node.pos) ?? []) {
      if (range.kind === ts.SyntaxKind.MultiLineCommentTrivia && text.startsWith('/**', range.pos) && !seen.has(range.pos)) {
        seen.set(range.pos, { text: text.slice(range.pos, range.end), line: sourceFile.getLineAndCharacterOfPosition(range.pos).line });
      }
    }
    for (const child of node.getChildren(sourceFile)) visit(child);
  };
  visit(sourceFile);
  return [...seen.entries()].sort(([a], [b]) => a - b).map(([, comment]) => comment);
}

/**
 * The ```ts blocks inside `@example` sections of one doc comment: their code (the comment's `* `
 * prefix removed) and the 1-based source line of their first code line. An `@example` section runs
 * to the next block tag or the comment's end.
 */
function commentExamples(comment) {
  const lines = comment.text.split('\n').map((line, i) => {
    let body = i === 0 ? line.replace(/^\/\*\*\s?/, '') : line.replace(/^\s*\*(?!\/) ?/, '');
    body = body.replace(/\s*\*\/\s*$/, '');
    return body;
  });
  const blocks = [];
  let inExample = false;
  for (let i = 0; i < lines.length; i++) {
    const tag = /^\s*@(\w+)/.exec(lines[i]);
    if (tag !== null) {
      inExample = tag[1] === 'example';
      continue;
    }
    const open = /^(\s*)```(\w*)\s*$/.exec(lines[i]);
    if (open === null) continue;
    const code = [];
    const start = comment.line + i + 2;
    for (i++; i < lines.length && !/^\s*```\s*$/.test(lines[i]); i++) code.push(lines[i].slice(Math.min(open[1].length, lines[i].length - lines[i].trimStart().length)));
    if (inExample && (open[2] === 'ts' || open[2] === 'typescript')) blocks.push({ code: code.join('\n'), start });
  }
  return blocks;
}

/**
 * The ```ts blocks inside the `@example` sections of every doc comment of a TypeScript source.
 *
 * @param text The source text.
 * @param fileName Its name (for the parser).
 * @return Each block's code and the 1-based line of its first code line in `text`, in order.
 */
export function exampleBlocks(text, fileName = 'source.ts') {
  return docComments(text, fileName).flatMap(commentExamples);
}
