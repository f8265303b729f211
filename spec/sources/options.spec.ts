/**
 * `fromResponse()` and `responseBody()` check their options when they are made: a key they do not
 * take is an `invalid-option` error naming it and the closest key (`maxErrorBodyBytes`' values:
 * spec/sources/responseCancellation.spec.ts). `switchMap(fromResponse)`'s index is no options.
 */
import { lastValueFrom, of, switchMap, toArray } from 'rxjs';
import { fromResponse, responseBody } from 'rxjs-tool-calls';
import { describeOptionChecks, invalidOption } from '../helpers/optionChecks';

describeOptionChecks([
  ['fromResponse', (o) => fromResponse(new Response('data'), o), 'provider', 'openai'],
  ['responseBody', (o) => responseBody(o), 'maxErrorBodyBytes', 1024],
]);

describe('fromResponse() options', () => {
  it('a provider that is not a string', () => {
    expect(invalidOption(() => fromResponse(new Response(''), { provider: 1 as never })).option).toBe('options.provider');
  });

  it('switchMap(fromResponse): the index switchMap passes is no options', async () => {
    const chunks = await lastValueFrom(of(new Response('data: x\n\n')).pipe(switchMap(fromResponse), toArray()));
    expect(new TextDecoder().decode(chunks[0])).toBe('data: x\n\n');
  });
});
