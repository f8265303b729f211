/**
 * A loop stopped at a pending approval, resumed in another process: process A runs the loop against
 * a scripted model on 127.0.0.1 until it pauses and prints the checkpoint; process B reads it from a
 * file with the user's decision and finishes the loop; the model's second request must answer every
 * call of the turn, in call order (the scripted model rejects it otherwise).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bundleChild, lastJsonLine, type ChildScript } from '../helpers/childProcess';
import { startScriptedModel, type ScriptedModel } from '../helpers/scriptedModel';
import { anthropicWire, openaiChatWire, type ScriptedWire } from '../helpers/scriptedWire';

jest.setTimeout(60_000);

let child: ChildScript;
let dir: string;
beforeAll(async () => {
  child = await bundleChild(path.join(__dirname, 'children/approvalLoop.ts'));
  dir = mkdtempSync(path.join(os.tmpdir(), 'rxjs-tool-calls-approval-'));
});
afterAll(() => {
  child.dispose();
  rmSync(dir, { recursive: true, force: true });
});

let model: ScriptedModel | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

interface Started {
  readonly log: string[];
  readonly last: string;
  readonly checkpoint: unknown;
}
interface Resumed {
  readonly types: string[];
  readonly log: string[];
  readonly messages: unknown[];
}

describe.each<[string, ScriptedWire]>([
  ['openai-chat', openaiChatWire],
  ['anthropic', anthropicWire],
])('resume in a new process (%s)', (_name, wire) => {
  it.each<[string, string, string]>([
    ['approved', '{"type":"approve"}', 'deleted /tmp/a'],
    ['denied', '{"type":"deny","reason":"keep it"}', 'denied the call: keep it'],
  ])('%s: the pending call is decided in process B, the model gets every result in call order', async (_case, decision, expected) => {
    model = await startScriptedModel([
      {
        events: wire.calls([
          { id: 'call_del', name: 'delete_file', args: { path: '/tmp/a' } },
          { id: 'call_w', name: 'get_weather', args: { city: 'Paris' } },
        ]),
      },
      {
        check: (body) => {
          const ids = wire.callIds(body);
          const results = wire.results(body);
          if (JSON.stringify(ids) !== JSON.stringify(['call_del', 'call_w'])) throw new Error(`calls ${JSON.stringify(ids)}`);
          if (JSON.stringify(results.map((r) => r.id)) !== JSON.stringify(ids)) throw new Error(`results ${JSON.stringify(results)}`);
          if (!results[0]?.content.includes(expected) || results[1]?.content !== 'sunny in Paris') throw new Error(`contents ${JSON.stringify(results)}`);
        },
        events: wire.answer('Done.'),
      },
    ]);
    const started = lastJsonLine<Started>(await child.run(['start', model.url, wire.format]));
    expect(started.last).toBe('paused');
    expect(started.log).toEqual(['weather Paris']);
    expect(model.requests).toHaveLength(1);
    const file = path.join(dir, `checkpoint-${wire.format}-${_case}.json`);
    writeFileSync(file, JSON.stringify(started.checkpoint));

    const resumed = lastJsonLine<Resumed>(await child.run(['resume', model.url, file, decision]));
    expect(model.rejections).toEqual([]);
    expect(model.requests).toHaveLength(2);
    expect(resumed.types).toEqual(['tool-approval', 'tool-result', 'step-end', 'step-start', 'step-end', 'done']);
    expect(resumed.log).toEqual(_case === 'approved' ? ['delete /tmp/a'] : []);
    expect(JSON.stringify(resumed.messages)).toContain('Done.');
  });
});
