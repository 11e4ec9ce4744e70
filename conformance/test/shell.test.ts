// The reproduce lines' quoting, read back by a real bash: any text comes back byte for byte, and a password
// left in its variable comes back as the password, whatever characters either holds.
import { execFileSync } from 'node:child_process';
import { expect, it } from 'vitest';
import { passwordSecrets } from '../src/report/curl.ts';
import { quote, segmentsOf, word } from '../src/report/shell.ts';

const bashPrints = (shellWord: string, env: Record<string, string> = {}) =>
  execFileSync('bash', ['-c', `printf %s ${shellWord}`], { env: { ...process.env, ...env }, encoding: 'utf8' });

const texts = [
  'plain',
  '',
  "it's",
  'a "quoted" $HOME `date` \\ path',
  'two\nlines\r\n\tand a tab',
  'bang! !! !$',
  'ünïcödé ✓',
  '\u0001\u001f\u007f',
  '--boundary\r\n',
];

it.each(texts)('quotes %j so that bash reads it back', (text) => {
  expect(bashPrints(quote(text))).toBe(text);
});

it('leaves a password in its variable, whatever it holds, and bash puts it back', () => {
  const password = `pa"ss \\ w'o$rd! \`x\``;
  const body = JSON.stringify({ username: 'alice', password });
  const variable = 'JES_CONFORMANCE_PASSWORD';
  const secrets = passwordSecrets(password, `$${variable}`);
  expect(secrets).toHaveLength(2);
  const shellWord = word(segmentsOf(body, secrets));
  expect(shellWord).not.toContain("w'o");
  expect(bashPrints(shellWord, { [variable]: password })).toBe(body);
  expect(bashPrints(word(segmentsOf(`alice:${password}`, secrets)), { [variable]: password })).toBe(
    `alice:${password}`,
  );
});
