/**
 * Truncation, exhaustively: every stream of TRUNCATION_STREAMS cut at EVERY byte offset yields the
 * calls completed before the cut (identical to the full run), then every open call as
 * `incomplete`, then `truncated` — or completion after the terminator, `unknown-format` before the
 * first event, the full run's own error after it. See `checkPrefix` for the exact rules.
 */
import { allStreams, checkPrefix, timeline } from '../helpers/timeline';
import { TRUNCATION_STREAMS } from '../helpers/truncationStreams';

const streams = new Map(allStreams());

describe.each(TRUNCATION_STREAMS)('%s', (name) => {
  it('cut at every byte offset', () => {
    const bytes = streams.get(name);
    if (bytes === undefined) throw new Error(`no stream ${name}`);
    const t = timeline(bytes);
    const failures: string[] = [];
    for (let k = 0; k <= bytes.length; k++) {
      const failure = checkPrefix(t, k);
      if (failure !== undefined) failures.push(failure);
    }
    expect(failures).toEqual([]);
  });
});
