import { map } from 'rxjs';
import { encodeChunks, marbleKeys, openaiChunk, openaiDone, splitEveryByte, splitInsideMultibyte, splitRandom, toBytes, wireChunks } from 'rxjs-tool-calls/marbles';
import { testScheduler } from '../helpers/marbles';

const concat = (chunks: Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
};

/** Whether `chunk` decodes on its own without a replacement character (i.e. it holds whole characters). */
const decodesAlone = (chunk: Uint8Array): boolean => !new TextDecoder().decode(chunk).includes('\uFFFD');

const sample = 'data: {"x":"é — 漢字 🙂"}\n\n';

describe('encodeChunks', () => {
  it('encodes strings, keeps bytes and joins arrays', () => {
    expect(encodeChunks({ a: 'é', b: Uint8Array.of(1), c: ['a', Uint8Array.of(98)] })).toEqual({ a: Uint8Array.of(0xc3, 0xa9), b: Uint8Array.of(1), c: Uint8Array.of(97, 98) });
  });
});

describe('marbleKeys', () => {
  it('finds the value letters and skips syntax and time progressions', () => {
    expect([...marbleKeys('^-a-(bc)-| 10ms d 1.5s e #!')]).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect([...marbleKeys('1-2')]).toEqual(['1', '2']);
  });
});

describe('wireChunks', () => {
  it('gives TestScheduler bytes for each letter', () => {
    const scheduler = testScheduler();
    scheduler.run(({ cold, expectObservable }) => {
      const { marbles, values } = wireChunks('-a-b|', { a: openaiChunk({ content: 'hi' }), b: [openaiDone(), 'x'] });
      const decoder = new TextDecoder();
      expectObservable(cold(marbles, values).pipe(map((bytes) => decoder.decode(bytes)))).toBe('-a-b|', { a: openaiChunk({ content: 'hi' }), b: `${openaiDone()}x` });
    });
  });

  it('keeps text when asked', () => {
    expect(wireChunks('a|', { a: Uint8Array.of(104, 105) }, { as: 'text' }).values).toEqual({ a: 'hi' });
  });

  it('throws for a letter without a value', () => {
    expect(() => wireChunks('-a-b-c|', { a: 'x' })).toThrow('wireChunks: no value for "b", "c" in "-a-b-c|"');
  });
});

describe('splitEveryByte', () => {
  it('gives one chunk per byte', () => {
    const chunks = splitEveryByte('aé');
    expect(chunks).toEqual([Uint8Array.of(97), Uint8Array.of(0xc3), Uint8Array.of(0xa9)]);
    expect(splitEveryByte('')).toEqual([]);
  });
});

describe('splitRandom', () => {
  it('is deterministic for a seed and differs between seeds', () => {
    const a = splitRandom(sample, 42, 5).map((c) => c.length);
    expect(splitRandom(sample, 42, 5).map((c) => c.length)).toEqual(a);
    expect(splitRandom(sample, 43, 5).map((c) => c.length)).not.toEqual(a);
  });

  it('keeps every byte in order, with chunks of 1..maxChunk bytes', () => {
    for (let seed = 0; seed < 50; seed++) {
      const chunks = splitRandom(sample, seed, 4);
      expect(concat(chunks)).toEqual(toBytes(sample));
      expect(chunks.every((c) => c.length >= 1 && c.length <= 4)).toBe(true);
    }
  });

  it('gives one chunk for a large maxChunk and none for empty input', () => {
    expect(splitRandom('abc', 1, 1000)).toEqual([toBytes('abc')]);
    expect(splitRandom('', 1)).toEqual([]);
  });

  it('rejects a maxChunk below 1', () => {
    expect(() => splitRandom('abc', 1, 0)).toThrow(RangeError);
  });
});

describe('splitInsideMultibyte', () => {
  it('cuts between the bytes of every multi-byte character and nowhere else', () => {
    const chunks = splitInsideMultibyte('aé漢🙂z');
    expect(chunks.map((c) => [...c])).toEqual([[0x61, 0xc3], [0xa9, 0xe6], [0xbc], [0xa2, 0xf0], [0x9f], [0x99], [0x82, 0x7a]]);
    expect(concat(chunks)).toEqual(toBytes('aé漢🙂z'));
  });

  it('leaves no chunk that holds a multi-byte character whole', () => {
    const chunks = splitInsideMultibyte(sample);
    expect(concat(chunks)).toEqual(toBytes(sample));
    // no two bytes of one multi-byte character share a chunk
    const holdsTwoBytesOfOneChar = (c: Uint8Array): boolean => c.some((byte, i) => (byte & 0x80) !== 0 && i + 1 < c.length && ((c[i + 1] as number) & 0xc0) === 0x80);
    expect(chunks.filter(holdsTwoBytesOfOneChar)).toEqual([]);
    // so the chunks with non-ASCII bytes do not decode alone
    expect(chunks.filter((c) => c.some((b) => b >= 0x80)).every((c) => !decodesAlone(c))).toBe(true);
  });

  it('keeps ASCII text whole', () => {
    expect(splitInsideMultibyte('data: x\n\n')).toEqual([toBytes('data: x\n\n')]);
  });
});
