// Reading a password: from standard input (`--password-stdin`), or typed on the terminal without echo.

/** All of standard input, less one trailing line end. */
export async function readStdin(): Promise<string> {
  let text = '';
  process.stdin.setEncoding('utf8');
  for await (const chunk of process.stdin) text += chunk as string;
  return text.replace(/\r?\n$/, '');
}

/** Asks on stderr and reads one line from the terminal with echo off (Ctrl-C exits with 130). */
export function promptHidden(question: string): Promise<string> {
  const { stdin, stderr } = process;
  // Echo off before the question shows, so that nothing typed after it is echoed.
  stdin.setRawMode(true);
  stdin.setEncoding('utf8');
  stdin.resume();
  stderr.write(question);
  return new Promise((resolve) => {
    let typed = '';
    const done = () => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      stderr.write('\n');
    };
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (char === '\r' || char === '\n' || char === '\u0004') {
          done();
          resolve(typed);
          return;
        }
        if (char === '\u0003') {
          done();
          process.exit(130);
        }
        typed = char === '\u007f' || char === '\b' ? typed.slice(0, -1) : typed + char;
      }
    };
    stdin.on('data', onData);
  });
}
