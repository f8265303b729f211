/** `partialObject()`'s doc example, run as written. */
import { from } from 'rxjs';
import { z } from 'zod';
import type { StreamEvent } from 'rxjs-tool-calls';
import { partialObject } from '../../src/operators/partialObject';

const t = (text: string): StreamEvent => ({ type: 'text-delta', choice: 0, text });
const finish = (): StreamEvent => ({ type: 'finish', choice: 0, reason: 'stop', rawReason: 'stop' });

it('partialObject(): the doc example displays what it says', () => {
  const shown: unknown[] = [];
  const schema = z.object({ city: z.string(), days: z.array(z.number()) });
  from([t('{"ci'), t('ty": "San'), t(' Francisco", "days": ['), t('1]}'), finish()])
    .pipe(partialObject({ schema }))
    .subscribe((u) => {
      if (u.type === 'partial') shown.push(u.value);
      if (u.type === 'result' && u.result.success) shown.push(u.result.data.city);
    });
  expect(shown).toEqual([{}, { city: 'San' }, { city: 'San Francisco', days: [] }, { city: 'San Francisco', days: [1] }, 'San Francisco']);
});
