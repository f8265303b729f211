// `node scripts/framing-fixtures.mjs`: writes each spec/fixtures/framing/bedrock/<name>.eventstream
// from its <name>.frames.json with AWS's own event-stream codec (@smithy/eventstream-codec), so that
// the binary fixtures are made by a codec no one here wrote. `--check` writes nothing and exits 1
// when a file differs from what the codec makes (spec/framing/fixtures.spec.ts checks the same).
//
// A frame description is one of:
//   { "event": "<:event-type>", "payload": <JSON> }          an event frame (application/json)
//   { "exception": "<:exception-type>", "payload": <JSON> }  an exception frame
//   { "chunk": <JSON> }                                      an InvokeModel chunk: {"bytes": base64 of the JSON}
import { EventStreamCodec } from '@smithy/eventstream-codec';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = join(dirname(fileURLToPath(import.meta.url)), '../spec/fixtures/framing/bedrock');
const codec = new EventStreamCodec(
  (bytes) => new TextDecoder().decode(bytes),
  (text) => new TextEncoder().encode(text),
);
const string = (value) => ({ type: 'string', value });

/** The frames of one description, as AWS's codec encodes them, joined. */
function encodeFrames(frames) {
  const parts = frames.map((frame) => {
    if (frame.chunk !== undefined) {
      const bytes = Buffer.from(JSON.stringify(frame.chunk), 'utf8').toString('base64');
      return codec.encode({
        headers: { ':event-type': string('chunk'), ':content-type': string('application/json'), ':message-type': string('event') },
        body: new TextEncoder().encode(JSON.stringify({ bytes })),
      });
    }
    const body = new TextEncoder().encode(JSON.stringify(frame.payload));
    if (frame.exception !== undefined)
      return codec.encode({ headers: { ':exception-type': string(frame.exception), ':content-type': string('application/json'), ':message-type': string('exception') }, body });
    return codec.encode({ headers: { ':event-type': string(frame.event), ':content-type': string('application/json'), ':message-type': string('event') }, body });
  });
  return Buffer.concat(parts);
}

const check = process.argv.includes('--check');
let differ = 0;
for (const file of readdirSync(dir)
  .filter((f) => f.endsWith('.frames.json'))
  .sort()) {
  const bytes = encodeFrames(JSON.parse(readFileSync(join(dir, file), 'utf8')).frames);
  const target = join(dir, file.replace(/\.frames\.json$/, '.eventstream'));
  if (check) {
    let current;
    try {
      current = readFileSync(target);
    } catch {
      current = Buffer.alloc(0);
    }
    if (!current.equals(bytes)) {
      differ++;
      console.log(`differs: ${target}`);
    }
  } else {
    writeFileSync(target, bytes);
    console.log(`${target}: ${bytes.length} bytes`);
  }
}
process.exit(differ === 0 ? 0 : 1);
