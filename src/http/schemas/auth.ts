// Request and response shapes shared by routes and the OpenAPI document (one source per shape).
import { Type } from '@sinclair/typebox';

export const Credentials = Type.Object(
  {
    session: Type.String({
      description: 'New session id; send it as `session` with the upload. Single use.',
    }),
    access_token: Type.String({
      description: 'JWT that renews the session once through `POST /api/refresh`.',
    }),
    refresh_token: Type.String({ description: 'JWT for `Authorization: Bearer …` on uploads.' }),
  },
  { $id: 'Credentials' },
);

/** Error body of the authentication surface: the plain one. */
export { ErrorBody as AuthError } from './errors.js';

export const AuthenticateBody = Type.Object(
  {
    key: Type.String({ minLength: 1, maxLength: 256, description: "The client's API key." }),
    client_id: Type.Optional(
      Type.String({ maxLength: 128, description: "The client id; when given it must be the key's." }),
    ),
  },
  { additionalProperties: false },
);
