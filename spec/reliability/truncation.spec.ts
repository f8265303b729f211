/**
 * Truncation, fast sample (the fuzz project cuts at every offset): a stream cut anywhere yields
 * every call completed before the cut, identical to the full run, then every open call as
 * `incomplete`, then `truncated` (or completion after the terminator, or `unknown-format` before
 * the first event). Never an untyped error, never a hang.
 */
import { allStreams, checkPrefix, timeline } from '../helpers/timeline';
import { TRUNCATION_STREAMS } from '../helpers/truncationStreams';

const streams = new Map(allStreams());

describe.each(TRUNCATION_STREAMS)('%s cut at sampled offsets', (name) => {
  it('gives the complete calls, the open calls as incomplete, then a typed end', () => {
    const bytes = streams.get(name);
    if (bytes === undefined) throw new Error(`no stream ${name}`);
    const t = timeline(bytes);
    // 60 offsets spread over the stream, plus the edges and every point where something happened.
    const offsets = new Set<number>([0, 1, bytes.length - 1, bytes.length]);
    for (let i = 0; i < 60; i++) offsets.add(Math.floor((i * bytes.length) / 60) + (i % 7));
    for (const r of t.results) if (Number.isFinite(r.offset)) [r.offset - 1, r.offset].forEach((o) => offsets.add(o));
    const failures = [...offsets]
      .filter((k) => k >= 0 && k <= bytes.length)
      .map((k) => checkPrefix(t, k))
      .filter((f) => f !== undefined);
    expect(failures).toEqual([]);
  });
});
