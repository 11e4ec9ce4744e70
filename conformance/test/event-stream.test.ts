// The suite reads event streams as the HTML standard's parser does, whatever line ends a deployment writes and
// however its bytes are cut into pieces: a stream that passes here is one a browser reads the same way.
import { expect, it } from 'vitest';
import { eventParser, parseEventStream } from '../src/event-stream.ts';

const stream = 'retry: 1000\n\n: keep-alive\n\nid: 1\nevent: status\ndata: {"a":1}\n\nid: 2\ndata: x\ndata: y\n\n';

it.each([
  ['LF', stream],
  ['CRLF', stream.replaceAll('\n', '\r\n')],
  ['CR', stream.replaceAll('\n', '\r')],
])('parses fields, comments, retry and multi-line data with %s line ends', (_, text) => {
  const parser = eventParser();
  expect([...parser.push(text), ...parser.finish()]).toEqual([
    { id: '1', event: 'status', data: '{"a":1}' },
    { id: '2', event: 'message', data: 'x\ny' },
  ]);
  expect(parser.state).toEqual({ retry: 1000, comments: 1 });
});

it('gives the same events whatever pieces the text comes in (a CRLF split between two pieces included)', () => {
  const text = stream.replaceAll('\n', '\r\n');
  for (let size = 1; size < 12; size++) {
    const parser = eventParser();
    const events = [];
    for (let i = 0; i < text.length; i += size) events.push(...parser.push(text.slice(i, i + size)));
    expect([...events, ...parser.finish()]).toEqual(parseEventStream(text));
    expect(events).toHaveLength(2);
  }
});

it('dispatches no event without data, and none cut off by the end of the stream', () => {
  expect(parseEventStream('id: 3\nevent: status\n\nid: 4\ndata: {}')).toEqual([]);
  expect(parseEventStream('data\n\n')).toEqual([{ id: undefined, event: 'message', data: '' }]);
});
