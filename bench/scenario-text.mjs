// The argument text of bench/scenarios.mjs: JSON documents of words, numbers and escapes, from a seeded rng.

// ---------------------------------------------------------------------------------------------
// Arguments: built as JSON text and as the value it must parse to, side by side. The text is
// written by our own encoder so that it can choose, per character, between raw UTF-8 and `\u`
// escapes (JSON.stringify would never emit `\u00e9` or `\ud83d\ude00`).
// ---------------------------------------------------------------------------------------------

const PLAIN_WORDS = [
  'weather',
  'forecast',
  'city',
  'temperature',
  'humidity',
  'wind',
  'pressure',
  'report',
  'station',
  'sensor',
  'north',
  'south',
  'east',
  'west',
  'morning',
  'evening',
  'cloudy',
  'sunny',
  'rain',
  'snow',
  'value',
  'query',
  'result',
  'table',
  'column',
  'record',
  'update',
  'insert',
  'select',
  'order',
  'limit',
  'offset',
  'page',
];
// Words that exercise every escape path: quotes, backslashes, newlines, tabs, control bytes,
// 2/3/4-byte UTF-8 and astral characters.
const EXOTIC_WORDS = [
  'café',
  'naïve',
  'résumé',
  'crème brûlée',
  '日本語',
  'Ελληνικά',
  'señor',
  'Zürich',
  '😀',
  'ok 😀 ok',
  '🎉🎉',
  'say "hi"',
  'C:\\temp\\x',
  'line1\nline2',
  'tab\there',
  'a\r\nb',
  'bell\u0007',
  '«quoted»',
  '€100',
  '𝄞 clef',
];

function jsonStringText(value, rng, exotic) {
  let out = '"';
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c === 0x22) out += '\\"';
    else if (c === 0x5c) out += '\\\\';
    else if (c === 0x0a) out += '\\n';
    else if (c === 0x0d) out += '\\r';
    else if (c === 0x09) out += '\\t';
    else if (c < 0x20) out += '\\u' + c.toString(16).padStart(4, '0');
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < value.length) {
      const low = value.charCodeAt(i + 1);
      // Astral character: as a `\ud83d\ude00` escape pair, or raw (4-byte UTF-8 on the wire).
      if (exotic && rng.chance(0.5)) out += '\\u' + c.toString(16) + '\\u' + low.toString(16);
      else out += value[i] + value[i + 1];
      i++;
    } else if (c > 0x7e && exotic && rng.chance(0.5)) out += '\\u' + c.toString(16).padStart(4, '0');
    else out += value[i];
  }
  return out + '"';
}

function numberText(rng) {
  const n = rng.chance(0.5) ? rng.int(-100000, 100000) : Math.round(rng.float() * 1e6) / 100;
  return { text: String(n), value: n };
}

export function sentence(rng, exotic, words) {
  const parts = [];
  for (let i = 0; i < words; i++) parts.push(exotic && rng.chance(0.3) ? rng.pick(EXOTIC_WORDS) : rng.pick(PLAIN_WORDS));
  return parts.join(' ');
}

/**
 * JSON arguments of about `targetChars` characters of text: `{ query, items: [{...}, ...], done }`.
 * @returns {{ text: string, value: object }}
 */
export function makeArguments(rng, targetChars, { exotic = false } = {}) {
  const query = sentence(rng, exotic, 6);
  let text = '{"query":' + jsonStringText(query, rng, exotic) + ',"items":[';
  const items = [];
  while (text.length < targetChars - 40) {
    const id = rng.int(1, 1e9);
    const title = sentence(rng, exotic, rng.int(2, 6));
    const body = sentence(rng, exotic, rng.int(5, 40));
    const score = numberText(rng);
    const tags = [];
    const tagCount = rng.int(0, 4);
    for (let i = 0; i < tagCount; i++) tags.push(rng.pick(exotic ? EXOTIC_WORDS : PLAIN_WORDS));
    const flag = rng.chance(0.5);
    const nested = rng.chance(0.2) ? { depth: { level: rng.int(0, 9), note: null } } : null;
    let itemText =
      '{"id":' +
      id +
      ',"title":' +
      jsonStringText(title, rng, exotic) +
      ',"body":' +
      jsonStringText(body, rng, exotic) +
      ',"score":' +
      score.text +
      ',"tags":[' +
      tags.map((t) => jsonStringText(t, rng, exotic)).join(',') +
      ']' +
      ',"flag":' +
      flag;
    const item = { id, title, body, score: score.value, tags, flag };
    if (nested) {
      itemText += ',"meta":{"depth":{"level":' + nested.depth.level + ',"note":null}}';
      item.meta = nested;
    }
    itemText += '}';
    text += (items.length ? ',' : '') + itemText;
    items.push(item);
  }
  text += '],"done":true}';
  return { text, value: { query, items, done: true } };
}
