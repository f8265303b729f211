/**
 * The CLI reads a recorded stream of every framing, recognised from its bytes: Bedrock's AWS event
 * stream, Ollama's NDJSON, Gemini's JSON array (the project's own fixtures, spec/fixtures/framing).
 */
import path from 'node:path';
import { main, type CliIo } from '../src/cli';
import { loadFramingFixtures } from './helpers/framingFixtures';

async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: CliIo = { stdout: (t) => (out += t), stderr: (t) => (err += t), stdin: (async function* () {})(), color: false };
  const code = await main(argv, io);
  return { code, out, err };
}

describe.each(loadFramingFixtures().map((f) => [f.name, f] as const))('%s', (name, fixture) => {
  it('shows its calls, and its error when it ends with one', async () => {
    const file = path.join(__dirname, 'fixtures/framing', `${name}${fixture.framing === 'aws-event-stream' ? '.eventstream' : fixture.framing === 'ndjson' ? '.ndjson' : '.json'}`);
    const { code, out, err } = await run([file]);
    for (const call of fixture.expected.toolCalls) if ('arguments' in call) expect(out).toContain(`✓ ${call.name}`);
    const error = fixture.expected.error;
    if (error === undefined) expect([code, err]).toEqual([0, '']);
    else {
      expect(code).toBe(1);
      expect(err).toContain(error.code);
    }
  });
});
