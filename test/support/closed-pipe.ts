// A command run as `command | head -1` meets it: its stdout closed before it writes (here before it even starts, so
// that every run meets the closed pipe). Its exit code and what it wrote to stderr.
import { spawn } from 'node:child_process';

export async function runWithClosedOutput(
  args: string[],
  cwd?: string,
): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, args, { ...(cwd ? { cwd } : {}), stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.destroy();
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { code, stderr };
}
