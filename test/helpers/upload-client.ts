// A client of a listening walkaround for upload tests: credentials, JSON and multipart uploads.
import fs from 'node:fs';
import path from 'node:path';

export interface Credentials {
  session: string;
  access_token: string;
  refresh_token: string;
}

export interface FilePart {
  name: string;
  /** In-memory content, or a file streamed from disk. */
  content?: Buffer;
  file?: string;
}

export function uploadClient(baseUrl: string) {
  return {
    async credentials(key: string): Promise<Credentials> {
      const res = await fetch(`${baseUrl}/api/authenticate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ key }),
      });
      if (!res.ok) throw new Error(`authenticate: ${res.status}`);
      return (await res.json()) as Credentials;
    },

    async urls(token: string | undefined, body: unknown) {
      const res = await fetch(`${baseUrl}/api/upload`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
        body: JSON.stringify(body),
      });
      return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, string> };
    },

    async files(token: string | undefined, fields: Record<string, string>, files: FilePart[]) {
      const form = new FormData();
      for (const [name, value] of Object.entries(fields)) form.append(name, value);
      for (const f of files) {
        const blob = f.file ? await fs.openAsBlob(f.file) : new Blob([f.content ?? Buffer.alloc(0)]);
        form.append('files', blob, f.name ?? path.basename(f.file ?? ''));
      }
      const res = await fetch(`${baseUrl}/api/upload`, {
        method: 'POST',
        headers: token ? { authorization: `Bearer ${token}` } : {},
        body: form,
      });
      return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, string> };
    },
  };
}
