// The benches' API client: authenticate with a key, then upload images as files in one request.
export interface Uploaded {
  session: string;
  /** Date.now() when the upload's 200 arrived. */
  answeredAt: number;
}

export interface UploadFile {
  name: string;
  content: Blob;
}

export async function uploadFiles(
  baseUrl: string,
  key: string,
  fields: { case_id: string; callback_url?: string },
  files: UploadFile[],
): Promise<Uploaded> {
  const auth = await fetch(`${baseUrl}/api/authenticate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ key }),
  });
  if (!auth.ok) throw new Error(`authenticate: ${auth.status} ${await auth.text()}`);
  const credentials = (await auth.json()) as { session: string; refresh_token: string };
  const form = new FormData();
  form.append('type', 'file');
  form.append('session', credentials.session);
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) form.append(name, value);
  for (const file of files) form.append('files', file.content, file.name);
  const res = await fetch(`${baseUrl}/api/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${credentials.refresh_token}` },
    body: form,
  });
  const answeredAt = Date.now();
  const text = await res.text();
  if (res.status !== 200) throw new Error(`upload: HTTP ${res.status} ${text.slice(0, 500)}`);
  return { session: credentials.session, answeredAt };
}
