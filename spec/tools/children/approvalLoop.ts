/**
 * Child process of `spec/tools/approvals.process.spec.ts`: one process of a tool loop with an
 * approval, against a scripted model on 127.0.0.1.
 *
 * `start <url> <format>`: runs the loop without `approve` and prints the `paused` checkpoint as one
 * JSON line (then exits: nothing of the loop is kept but that line).
 * `resume <url> <checkpoint file> <decision JSON>`: resumes from the checkpoint with that decision
 * for every pending call and prints `{ types, log, messages }` of the rest of the loop.
 */
import { readFileSync } from 'node:fs';
import { lastValueFrom, of, toArray } from 'rxjs';
import { z } from 'zod';
import { fromResponse } from '../../../src/index';
import { tool, toolLoop, type LoopMessage, type MessageFormat, type ToolApprovalDecision, type ToolLoopCheckpoint } from '../../../src/tools/index';

const log: string[] = [];
const tools = {
  delete_file: tool({ schema: z.strictObject({ path: z.string() }), needsApproval: true, execute: ({ path }) => (log.push(`delete ${path}`), `deleted ${path}`) }),
  get_weather: tool({ schema: z.strictObject({ city: z.string() }), execute: ({ city }) => (log.push(`weather ${city}`), `sunny in ${city}`) }),
};
const [mode, url = '', arg = '', decision = '{}'] = process.argv.slice(2);
const request = (messages: ReadonlyArray<LoopMessage>) => fromResponse(fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ messages }) }));

async function main(): Promise<void> {
  if (mode === 'start') {
    const format = arg as MessageFormat;
    const items = await lastValueFrom(toolLoop(request, tools, { format, messages: [{ role: 'user', content: 'Clean up and tell me the weather' }] }).pipe(toArray()));
    const last = items.at(-1);
    process.stdout.write(`${JSON.stringify({ log, last: last?.type, checkpoint: last?.type === 'paused' ? last.checkpoint : undefined })}\n`);
    return;
  }
  const checkpoint = JSON.parse(readFileSync(arg, 'utf8')) as ToolLoopCheckpoint;
  const answer = JSON.parse(decision) as ToolApprovalDecision;
  const items = await lastValueFrom(toolLoop(request, tools, { resume: checkpoint, approve: () => of(answer) }).pipe(toArray()));
  const last = items.at(-1);
  process.stdout.write(`${JSON.stringify({ types: items.map((i) => i.type).filter((t) => t !== 'event'), log, messages: last?.type === 'done' ? last.messages : undefined })}\n`);
}

main().catch((error: unknown) => {
  process.stdout.write(`${JSON.stringify({ error: String(error) })}\n`);
  process.exitCode = 1;
});
