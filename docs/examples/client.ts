// An integrator's client, generated from the OpenAPI document: `api.d.ts` beside this file comes from
// docs/openapi.json through openapi-typescript (`npm run docs` regenerates both), and openapi-fetch
// makes the typed calls. Every path, body and answer below is checked by the TypeScript compiler against
// the document; the project's test suite runs this file against a real service.
//
//   npx openapi-typescript https://your-walkaround/openapi.json -o api.d.ts
//   npm install openapi-fetch
import createClient from 'openapi-fetch';
import type { paths } from './api.js';

/** The calls of an integration: upload photos (by URL or as files) and read the inspection back. */
export function walkaround(baseUrl: string, apiKey: string) {
  const api = createClient<paths>({ baseUrl });

  /** A session and its upload token: each upload spends one session. */
  async function credentials() {
    const { data, error, response } = await api.POST('/api/authenticate', { body: { key: apiKey } });
    if (!data) throw new Error(`authenticate: ${response.status} ${error?.message}`);
    return data;
  }

  return {
    /** Uploads photos by URL; gives the inspection id (the session). */
    async uploadUrls(caseId: string, urls: string[], callbackUrl: string) {
      const { session, refresh_token } = await credentials();
      const { data, error, response } = await api.POST('/api/upload', {
        headers: { authorization: `Bearer ${refresh_token}` },
        body: { type: 'urls', session, case_id: caseId, urls, callback_url: callbackUrl },
      });
      if (!data) throw new Error(`upload: ${response.status} ${error?.message}`);
      return data.id;
    },

    /** Uploads photo files as multipart; gives the inspection id (the session). */
    async uploadFiles(caseId: string, files: { name: string; bytes: Uint8Array }[], callbackUrl: string) {
      const { session, refresh_token } = await credentials();
      const { data, error, response } = await api.POST('/api/upload', {
        headers: { authorization: `Bearer ${refresh_token}` },
        body: {
          type: 'file',
          session,
          case_id: caseId,
          callback_url: callbackUrl,
          files: files.map((file) => new File([file.bytes], file.name)),
        },
        // The document types the multipart fields; they go as the parts of a FormData, a file a part.
        bodySerializer: (fields) => {
          const form = new FormData();
          for (const [name, value] of Object.entries(fields))
            for (const item of Array.isArray(value) ? value : [value])
              form.append(name, item instanceof Blob ? item : String(item));
          return form;
        },
      });
      if (!data) throw new Error(`upload: ${response.status} ${error?.message}`);
      return data.id;
    },

    /** The inspection's state, media and (once analysed) result. */
    async inspection(session: string) {
      const { data, error, response } = await api.GET('/api/inspections/{session}', {
        params: { path: { session } },
        headers: { 'x-api-key': apiKey },
      });
      if (!data) throw new Error(`inspection: ${response.status} ${error?.message}`);
      return data;
    },
  };
}

export type Walkaround = ReturnType<typeof walkaround>;
