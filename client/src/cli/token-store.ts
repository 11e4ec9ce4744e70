// Tokens kept between commands, one per service URL, in `$XDG_CONFIG_HOME/jes/credentials.json`
// (else `~/.config/jes/`), readable by the user only (directory 0700, file 0600).
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';

export interface StoredToken {
  username: string;
  token: string;
  /** RFC 3339; when the token stops being accepted. */
  expires_at: string;
}

export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'jes');
}

export const credentialsFile = (env: NodeJS.ProcessEnv = process.env) => join(configDir(env), 'credentials.json');

async function readAll(): Promise<Record<string, StoredToken>> {
  try {
    return JSON.parse(await readFile(credentialsFile(), 'utf8')) as Record<string, StoredToken>;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw error;
  }
}

export async function readToken(baseUrl: string): Promise<StoredToken | undefined> {
  return (await readAll())[baseUrl];
}

/** Stores the token for `baseUrl` (replacing the file atomically, mode 0600); returns the file's path. */
export async function saveToken(baseUrl: string, stored: StoredToken): Promise<string> {
  const file = credentialsFile();
  await mkdir(configDir(), { recursive: true, mode: 0o700 });
  const all = { ...(await readAll()), [baseUrl]: stored };
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, JSON.stringify(all, null, 2) + '\n', { mode: 0o600 });
  await chmod(temporary, 0o600);
  await rename(temporary, file);
  return file;
}
